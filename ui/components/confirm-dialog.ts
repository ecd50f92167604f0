/**
 * `<confirm-dialog>`: the "Are you sure?" step before an action that cannot be taken back
 * (signing out everywhere, deleting a code, suspending an account). A modal `<dialog>`, so the
 * browser does what such a step needs: it is announced as a dialog with its question as its
 * name, the keyboard stays inside it, Escape cancels, and focus goes back to the button that
 * asked when it closes. The keyboard starts on Cancel, so Enter pressed once too often changes
 * nothing. `ask` answers whether the person confirmed.
 */
import { html, LitElement } from "lit"
import { customElement, query, state } from "lit/decorators.js"
import { dialogStyles } from "../styles/dialog-styles.ts"
import { sharedStyles } from "../styles/shared-styles.ts"

export interface Question {
  /** The question, the dialog's name: "Delete code ABC?" */
  readonly title: string
  /** What happens, in a sentence. */
  readonly message: string
  /** The confirming button's words: "Delete the code". */
  readonly confirm: string
}

@customElement("confirm-dialog")
export class ConfirmDialog extends LitElement {
  @state() private accessor _question: Question = { title: "", message: "", confirm: "" }

  @query("dialog") private accessor _dialog!: HTMLDialogElement

  private _answer: ((confirmed: boolean) => void) | null = null

  /** Opens the dialog; resolves true for the confirming button, false for Cancel or Escape. */
  async ask(question: Question): Promise<boolean> {
    this._answer?.(false)
    this._question = question
    await this.updateComplete
    this._dialog.returnValue = ""
    if (!this._dialog.open) this._dialog.showModal()
    return new Promise((resolve) => {
      this._answer = resolve
    })
  }

  protected override render() {
    return html`<dialog aria-labelledby="confirm-title" aria-describedby="confirm-message" @close=${this._onClose}>
      <h2 id="confirm-title">${this._question.title}</h2>
      <p id="confirm-message">${this._question.message}</p>
      <form method="dialog" class="actions">
        <button class="secondary" value="cancel" autofocus>Cancel</button>
        <button class="danger" value="confirm">${this._question.confirm}</button>
      </form>
    </dialog>`
  }

  private readonly _onClose = (): void => {
    const answer = this._answer
    this._answer = null
    answer?.(this._dialog.returnValue === "confirm")
  }

  static override styles = [sharedStyles, dialogStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "confirm-dialog": ConfirmDialog
  }
}
