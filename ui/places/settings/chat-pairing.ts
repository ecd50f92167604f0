/**
 * chat_a's pairing code (spec: ChatPairing, `GET /api/connections/chat_a/pairing`): the code to
 * send the bot, with its link, until a chat is paired. Shown only when the node answers the
 * route; a node without it (or without a bot) shows nothing.
 *
 * The route is not in this branch's contract yet (it lands with the chat bridge), so it is read
 * with a plain request and only the fields shown are taken; once the contract has ChatPairing,
 * this reads it through the typed client.
 */
import { html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import { formatDateTime } from "../../components/format.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

interface Pairing {
  readonly paired: boolean
  readonly code: string | null
  readonly expiresAt: string | null
  readonly deepLink: string | null
  readonly chatTitle: string | null
}

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null)

const pairingOf = (body: unknown): Pairing | null => {
  if (typeof body !== "object" || body === null) return null
  const fields = body as Record<string, unknown>
  return { paired: fields.paired === true, code: text(fields.code), expiresAt: text(fields.expiresAt), deepLink: text(fields.deepLink), chatTitle: text(fields.chatTitle) }
}

@customElement("chat-pairing")
export class ChatPairing extends LitElement {
  @state() private accessor _pairing: Pairing | null = null

  override connectedCallback(): void {
    super.connectedCallback()
    void this._load()
  }

  protected override render() {
    const pairing = this._pairing
    if (pairing === null) return nothing
    if (pairing.paired) return html`<p>Paired${pairing.chatTitle === null ? "" : ` with ${pairing.chatTitle}`}.</p>`
    if (pairing.code === null) return nothing
    return html`<p class="pairing">
      Pairing code: <strong class="code">${pairing.code}</strong>. Send it to the bot${pairing.deepLink === null ? "" : html` (<a href=${pairing.deepLink} rel="noreferrer" target="_blank">open the chat</a>)`}${pairing.expiresAt === null ? "" : `; it works until ${formatDateTime(pairing.expiresAt)}`}.
    </p>`
  }

  private async _load(): Promise<void> {
    try {
      const answer = await fetch("/api/connections/chat_a/pairing", { credentials: "same-origin" })
      this._pairing = answer.ok ? pairingOf(await answer.json()) : null
    } catch {
      this._pairing = null
    }
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "chat-pairing": ChatPairing
  }
}
