/**
 * A form's submit listener for places that send the form through the typed client: the browser
 * must not send it itself (that would leave the app), and `send` reads each field as a string.
 */
export interface SubmittedForm {
  readonly form: HTMLFormElement
  /** The field's value; "" for a field the form does not have or left empty. */
  readonly field: (name: string) => string
  /**
   * Empties the form once the node took what was sent, unless the person changed it meanwhile:
   * words typed while the first send was on its way are the next thing they mean to send.
   * Whether it emptied the form.
   */
  readonly clear: () => boolean
}

/** The form's text fields as one string, to tell whether it changed since it was sent. */
const contents = (form: HTMLFormElement): string =>
  JSON.stringify([...new FormData(form)].filter(([, value]) => typeof value === "string"))

export const onSubmit =
  (send: (submitted: SubmittedForm) => unknown) =>
  (event: SubmitEvent): void => {
    event.preventDefault()
    const form = event.target as HTMLFormElement
    const data = new FormData(form)
    const sent = contents(form)
    void send({
      form,
      field: (name) => String(data.get(name) ?? ""),
      clear: () => {
        const unchanged = contents(form) === sent
        if (unchanged) form.reset()
        return unchanged
      }
    })
  }
