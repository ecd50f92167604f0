/**
 * Settings → Assistants (MCP): the person lets an assistant of theirs (a desktop assistant, an IDE agent) read and
 * write their twin over the Model Context Protocol. They mint a client with the grants they choose; its token is
 * shown this once, with copy buttons and a configuration to paste into the assistant, and never again (the node
 * keeps a digest). The list shows each client's grants, and revoking one stops its token at once.
 */
import { css, html, LitElement } from "lit"
import { customElement, state } from "lit/decorators.js"
import {
  MCP_PATH,
  type McpClient,
  type McpGrant,
  mcpGrants,
  type MintedMcpClient
} from "../../../extensions/mcp/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { actionHeading, dataTable } from "../../components/data-table.ts"
import "../../components/did-copy.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

const grantWords: Record<McpGrant, string> = {
  "memory.read": "Search memories and read the profile",
  "memory.write": "Add memories",
  "todos.read": "Read to-dos",
  "todos.write": "Add and complete to-dos",
  "calendar.read": "Read the calendar",
  "calendar.write": "Add events",
  "files.read": "Find and read files"
}

/** What a desktop assistant's MCP configuration holds for this node: its address and the bearer token. */
export const assistantConfig = (origin: string, token: string) =>
  JSON.stringify(
    {
      mcpServers: {
        "personal-node": { type: "http", url: `${origin}${MCP_PATH}`, headers: { Authorization: `Bearer ${token}` } }
      }
    },
    null,
    2
  )

@customElement("settings-assistants")
export class SettingsAssistants extends LitElement {
  private readonly _clients = new ApiResource(this, (client) => client.mcpClients.list())

  private readonly _acting = new ApiAction(this)

  /** The client just minted, its token shown until the person says they have it. */
  @state() private accessor _minted: MintedMcpClient | null = null

  protected override render() {
    return html`<section class="card" aria-labelledby="assistants-title">
      <h2 id="assistants-title">Assistants (MCP)</h2>
      <p class="muted">Let an assistant of yours (a desktop assistant, an IDE agent) read and write your twin over the
        Model Context Protocol, with only the permissions you tick. It acts as you, and only for you.</p>
      <node-alert .message=${this._acting.error || this._clients.error}></node-alert>
      <node-alert kind="success" .message=${this._acting.notice}></node-alert>
      ${this._minted === null ? this._renderMint() : this._renderToken(this._minted)}
      ${this._clients.render("Loading your assistants…", (clients) =>
        clients.length === 0 ? html`<p class="muted">No assistant has a token yet.</p>` : this._renderList(clients)
      )}
    </section>`
  }

  private _renderMint() {
    return html`<form aria-label="New assistant" @submit=${onSubmit(({ form, field }) => this._mint(form, field("name")))}>
      <label>Name <input name="name" required maxlength="100" autocomplete="off" placeholder="My desktop assistant" /></label>
      <fieldset>
        <legend>It may</legend>
        ${mcpGrants.map(
          (grant) => html`<label class="grant"><input type="checkbox" name="grants" value=${grant} />
            ${grantWords[grant]} <code>${grant}</code></label>`
        )}
      </fieldset>
      <div class="actions"><button type="submit" ?disabled=${this._acting.busy}>Create token</button></div>
    </form>`
  }

  private _renderToken(minted: MintedMcpClient) {
    return html`<div class="minted" role="region" aria-label="New token">
      <p><strong>Copy the token for ${minted.name} now: it is not shown again.</strong></p>
      <did-copy class="token" .did=${minted.token} label="the token"></did-copy>
      <p class="muted">Or paste this into the assistant's MCP configuration:</p>
      <did-copy class="config" block .did=${assistantConfig(location.origin, minted.token)} label="the configuration"></did-copy>
      <div class="actions"><button type="button" @click=${() => (this._minted = null)}>I have copied it</button></div>
    </div>`
  }

  private _renderList(clients: ReadonlyArray<McpClient>) {
    return dataTable(
      ["Assistant", "May", "Created", actionHeading],
      clients.map(
        (client) => html`<tr class="assistant">
          <td>${client.name}</td>
          <td>${client.grants.map((grant) => html`<code>${grant}</code> `)}</td>
          <td>${formatDateTime(client.createdAt)}</td>
          <td><button class="danger" type="button" ?disabled=${this._acting.busy}
            aria-label=${`Revoke ${client.name}`} @click=${() => this._revoke(client)}>Revoke</button></td>
        </tr>`
      )
    )
  }

  private async _mint(form: HTMLFormElement, name: string): Promise<void> {
    const grants = new FormData(form).getAll("grants").map(String) as Array<McpGrant>
    if (grants.length === 0) return this._acting.fail("Tick at least one thing the assistant may do.")
    const done = await this._acting.run(
      (client) => client.mcpClients.mint({ payload: { name: name.trim(), grants } }),
      (minted) => {
        this._minted = minted
      }
    )
    if (done) form.reset()
    await this._clients.reload()
  }

  private async _revoke(client: McpClient): Promise<void> {
    await this._acting.run(
      (api) => api.mcpClients.revoke({ path: { id: client.id } }),
      () => `${client.name} is revoked: its token no longer works.`
    )
    await this._clients.reload()
  }

  static override styles = [
    sharedStyles,
    css`
      fieldset { display: grid; gap: 0.25rem; border: none; padding: 0; margin: 0.5rem 0; }
      .grant { display: flex; gap: 0.5rem; align-items: baseline; font-weight: normal; }
      .minted { display: grid; gap: 0.5rem; margin-bottom: 1rem; }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-assistants": SettingsAssistants
  }
}
