/** The push feature's settings (docs/operations.md): who the node names to push services, loopback endpoints, bounds. */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import { flag, optionalString, settingsLayer } from "../../kernel/settings.ts"

export const pushSettingsConfig = Config.all({
  /**
   * The VAPID `sub` a push service may write to about this node's messages: a `mailto:` address or an https URL.
   * Unset: the node's public URL when it is https (docs/decisions.md "Web Push").
   */
  pushContact: optionalString("PUSH_CONTACT").pipe(
    Config.validate({
      message: "PUSH_CONTACT must be a mailto: address or an https:// URL",
      validation: (contact) =>
        Option.isNone(contact) || /^(mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s/]+)/i.test(contact.value)
    })
  ),
  /** Takes `http:` subscription endpoints on a loopback address and sends to them (tests, a local push service). */
  pushAllowLoopback: flag("PUSH_ALLOW_LOOPBACK"),
  /** The most devices one person may subscribe; one more is refused with 409 `too_many_subscriptions`. */
  pushMaxSubscriptions: Config.integer("PUSH_MAX_SUBSCRIPTIONS").pipe(
    Config.withDefault(20),
    Config.validate({
      message: "PUSH_MAX_SUBSCRIPTIONS must be between 1 and 10000",
      validation: (n) => n >= 1 && n <= 10_000
    })
  )
})

export type PushSettingsShape = Config.Config.Success<typeof pushSettingsConfig>

export class PushSettings extends Context.Tag("push/PushSettings")<PushSettings, PushSettingsShape>() {
  static readonly layer = (overrides?: Partial<PushSettingsShape>) =>
    settingsLayer(PushSettings, pushSettingsConfig, overrides)
}
