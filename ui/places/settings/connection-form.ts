/**
 * The form that connects a provider, drawn from its auth (spec: ProviderAuth): a field per
 * declared field (label, help, placeholder; a secret one as a password input), the one path
 * field, a start link for oauth2 (or, without the node's OAuth client, what is missing), the inbound address for a
 * webhook (with a secret made here, to
 * copy once), and a bare button when the provider needs nothing. Every form but the start link takes an optional label.
 */
import { html } from "lit"
import type { ProviderAuthField, ProviderDescriptor } from "../../../extensions/twin/contract/connections.ts"
import { onSubmit } from "../../components/on-submit.ts"

type Send = (config: Record<string, string>, form: HTMLFormElement) => void

/** Each webhook provider's secret made in the browser, kept across renders until the node has it. */
const madeSecrets = new Map<string, string>()

const secretFor = (providerId: string) => {
  const made =
    madeSecrets.get(providerId) ??
    Array.from(crypto.getRandomValues(new Uint8Array(24)), (byte) => byte.toString(16).padStart(2, "0")).join("")
  madeSecrets.set(providerId, made)
  return made
}

/** Once a connection took the secret, the form offers a new one: the one sent is not shown again. */
export const forgetMadeSecret = (providerId: string) => madeSecrets.delete(providerId)

const input = (provider: ProviderDescriptor, field: ProviderAuthField) => {
  const helpId = `help-${provider.id}-${field.name}`
  // A path is the node's to check (for some providers empty means all of a folder).
  const optional = !field.required && provider.auth.kind === "fields"
  return html`<label>
    ${field.label}${optional ? html` <span class="muted">(optional)</span>` : ""}
    <input name=${field.name} type=${field.secret && provider.auth.kind !== "webhook" ? "password" : "text"} autocomplete=${field.secret ? "new-password" : "off"}
      placeholder=${field.placeholder} ?required=${field.required} aria-describedby=${field.help === "" ? "" : helpId}
      .value=${provider.auth.kind === "webhook" ? secretFor(provider.id) : ""} />
    ${field.help === "" ? "" : html`<span class="muted" id=${helpId}>${field.help}</span>`}
  </label>`
}

const fieldsOf = (provider: ProviderDescriptor): ReadonlyArray<ProviderAuthField> => {
  const auth = provider.auth
  switch (auth.kind) {
    case "fields":
      return auth.fields
    case "path":
      return [
        {
          name: auth.field,
          label: auth.label || auth.field,
          secret: false,
          help: auth.help,
          placeholder: "",
          required: false
        }
      ]
    case "webhook":
      return auth.verify === "none"
        ? []
        : [
            {
              name: "secret",
              label: "Shared secret",
              secret: true,
              help: "Made for you: copy it into the sending service now, it is not shown again.",
              placeholder: "",
              required: true
            }
          ]
    default:
      return []
  }
}

/**
 * Said instead of a Connect link that would only fail after the redirect: the node has no OAuth client for the
 * provider.
 */
const noClient = (provider: ProviderDescriptor, owner: boolean) =>
  html`<p class="muted" role="note">Connecting ${provider.title} needs this node's OAuth client for it, which is not set yet:
    ${owner ? "set its client id and secret under OAuth clients below." : "ask the owner of this node to set it."}</p>`

export const connectionForm = (provider: ProviderDescriptor, owner: boolean, busy: boolean, send: Send) => {
  const auth = provider.auth
  if (auth.kind === "oauth2") {
    return auth.clientConfigured === false
      ? noClient(provider, owner)
      : html`<p><a class="button" href=${auth.startPath}>Connect ${provider.title}</a></p>`
  }
  const fields = fieldsOf(provider)
  const names = ["label", ...fields.map((field) => field.name)]
  return html`<form aria-label=${`Connect ${provider.title}`}
    @submit=${onSubmit(({ form, field }) => send(Object.fromEntries(names.map((name) => [name, field(name)])), form))}>
    ${auth.kind === "webhook" ? html`<p class="muted">It posts to this node at ${auth.path}.</p>` : ""}
    ${fields.map((field) => input(provider, field))}
    <label>Label <span class="muted">(optional)</span><input name="label" maxlength="80" /></label>
    <div class="actions"><button type="submit" ?disabled=${busy}>Connect</button></div>
  </form>`
}
