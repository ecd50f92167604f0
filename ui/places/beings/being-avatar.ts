/**
 * A being's picture: a citizen's persona avatar (as an icon: emoji-icons.ts), a robot for an
 * agent's being, a person's initials. Decoration beside the name, so hidden from screen readers.
 */
import { css, html } from "lit"
import type { ListedBeing } from "../../../extensions/souls/contract/records.ts"
import { mdiRobotOutline } from "@mdi/js"
import { agentIconPath } from "../../components/emoji-icons.ts"
import { icon } from "../../components/icon.ts"

const initials = (name: string): string =>
  name
    .split(/\s+/)
    .filter((word) => word !== "")
    .slice(0, 2)
    .map((word) => [...word][0]!.toUpperCase())
    .join("") || "?"

export const beingAvatar = (being: Pick<ListedBeing, "kind" | "displayName" | "citizen">) =>
  html`<span class="avatar" data-kind=${being.kind} aria-hidden="true">${
    being.citizen !== undefined
      ? icon(agentIconPath(being.citizen.avatar))
      : being.kind === "agent"
        ? icon(mdiRobotOutline)
        : initials(being.displayName)
  }</span>`

/** Whether a being has a live socket now: a dot and the word. */
export const presence = (online: boolean) =>
  html`<span class="presence" data-online=${online ? "true" : "false"}><span class="dot" aria-hidden="true"></span>${online ? "Online" : "Offline"}</span>`

export const avatarStyles = css`
  .avatar {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    flex: none;
    width: 40px;
    height: 40px;
    border-radius: 50%;
    background: var(--node-accent-soft);
    color: var(--node-accent-soft-text);
    font-weight: var(--node-font-weight-semibold);
    font-size: var(--node-font-size-sm);
  }
  .avatar[data-kind="citizen"] {
    background: var(--node-warning-bg);
    color: var(--node-warning);
  }
  .avatar[data-kind="agent"] {
    background: var(--node-surface-raised);
    color: var(--node-muted);
  }
  .presence {
    display: inline-flex;
    align-items: center;
    gap: var(--node-space-1);
    font-size: var(--node-font-size-xs);
    color: var(--node-muted);
    white-space: nowrap;
  }
  .presence .dot {
    width: 8px;
    height: 8px;
    border-radius: 50%;
    background: var(--node-border-strong);
  }
  .presence[data-online="true"] .dot {
    background: var(--node-success);
    box-shadow: 0 0 0 3px var(--node-success-bg);
  }
`
