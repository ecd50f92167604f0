/**
 * chat_a's pairing code (spec: ChatPairing, `GET /api/connections/chat_a/pairing`): the code to
 * send the bot, with its link, until a chat is paired. Shown only when a bot token resolves
 * (`configured`); a node without one shows nothing.
 */
import { html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { ChatPairing as Pairing } from "../../../extensions/twin/contract/connections.ts"
import { request } from "../../api/client.ts"
import { formatDateTime } from "../../components/format.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

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
    const answer = await request((client) => client.connections.chatPairing())
    this._pairing = answer.ok && answer.value.configured ? answer.value : null
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "chat-pairing": ChatPairing
  }
}
