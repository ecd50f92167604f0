/** The end-to-end tests run against the app as built from the current sources. */
import { buildUi } from "../../ui/build.ts"

export default async function setup(): Promise<void> {
  await buildUi()
}
