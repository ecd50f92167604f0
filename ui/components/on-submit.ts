/**
 * A form's submit listener for places that send the form through the typed client: the browser
 * must not send it itself (that would leave the app), and `send` reads each field as a string.
 */
export interface SubmittedForm {
  readonly form: HTMLFormElement
  /** The field's value; "" for a field the form does not have or left empty. */
  readonly field: (name: string) => string
}

export const onSubmit =
  (send: (submitted: SubmittedForm) => unknown) =>
  (event: SubmitEvent): void => {
    event.preventDefault()
    const form = event.target as HTMLFormElement
    const data = new FormData(form)
    void send({ form, field: (name) => String(data.get(name) ?? "") })
  }
