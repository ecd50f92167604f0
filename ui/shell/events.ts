/**
 * Every event the app's elements send, in one map: the name, and what `detail` carries.
 * `fireEvent` sends one that bubbles out of shadow roots; the global declarations make
 * `addEventListener` typed for each.
 */
import type { Signal } from "../../actors/being/contract/signal.ts"
import type { Being } from "../../extensions/accounts/contract/records.ts"
import type { Post, Soul } from "../../extensions/souls/contract/records.ts"
import type { Listing } from "../../extensions/market/contract/records.ts"
import type { NodeTranscript } from "../../extensions/twin/voice/contract/records.ts"

export interface NodeEvents {
  /** A sign-in, sign-out or refreshed account: the being now signed in, or null. */
  "session-changed": { readonly being: Being | null }
  /** The node answered 401 to a request that needed a session (it ended, or was revoked). */
  "session-lost": { readonly message: string }
  /** The path changed (pushState by the router, or the history's back and forward). */
  "location-changed": { readonly path: string }
  /** The node answered an answer or a dismissal with the signal's newer record. */
  "signal-changed": { readonly signal: Signal }
  /** The node refused an answer or a dismissal: the list on screen is out of date, load it again. */
  "signals-stale": Record<string, never>
  /**
   * A place drew its heading late (after its data loaded: a project's title), so the shell can
   * give it the keyboard if a navigation is waiting for it.
   */
  "place-heading": Record<string, never>
  /** The person added a suggested widget to the desktop, or dismissed the suggestion. */
  "widget-suggestion": { readonly widgetType: string; readonly accept: boolean }
  /** The twin's hush settings were saved: what the gate holds may have changed. */
  "hush-changed": Record<string, never>
  /** The being renamed its Muse (the twin profile's `museName`): muse threads' titles changed. */
  "muse-renamed": { readonly name: string }
  /** A soul was rewritten, generated, recompiled or drifted: the node's newer record. */
  "soul-changed": { readonly soul: Soul }
  /**
   * The node answered posts made from this tab (one's own, a beat of the square's life); `square.post` brings them too.
   */
  "square-posted": { readonly posts: ReadonlyArray<Post> }
  /** The market's listing form published or saved a listing. */
  "listing-saved": { readonly listing: Listing }
  /** A schema form passed the browser's checks: its values, typed as its JSON Schema says (empty fields left out). */
  "schema-form-submit": { readonly values: Readonly<Record<string, unknown>> }
  /** A group was changed in /spaces (members, name, place in the tree): the list of groups may be out of date. */
  "group-changed": Record<string, never>
  /** A model provider or a tier binding changed in Settings → Models: what is bound (and the demo banner) may differ. */
  "models-changed": Record<string, never>
  /** A plugin was installed or uninstalled in Settings: the rail's modules and the plugin lists may be out of date. */
  "plugins-changed": Record<string, never>
  /** A voice recorder's recording came back as text (with where it went). */
  "voice-transcript": { readonly transcript: NodeTranscript }
  /** Words spoken into /muse, by the node's transcription or the browser's own recogniser. */
  "voice-text": { readonly text: string }
  /** The register page's restore put a backup in place and the node is back on it: who signs in next. */
  "backup-restored": { readonly ownerHandle: string | null }
  /**
   * The person asked to run a project again from one of its steps, adding `instruction` ("" adds nothing): in the
   * project itself, or in a new project copied from it (`fork`).
   */
  "replay-requested": { readonly taskId: string; readonly instruction: string; readonly fork: boolean }
}

export type NodeEventMap = { [K in keyof NodeEvents]: CustomEvent<NodeEvents[K]> }

export const fireEvent = <K extends keyof NodeEvents>(target: EventTarget, type: K, detail: NodeEvents[K]): void => {
  target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }))
}

declare global {
  interface HTMLElementEventMap extends NodeEventMap {}
  interface WindowEventMap extends NodeEventMap {}
}
