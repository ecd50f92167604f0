/**
 * The end-to-end tests run against the app as built from the current sources, and against the node's modules bundled
 * as `npm start` loads them (host/server-bundle.ts), bundled once here (../support/bundle-setup.ts).
 */
import { buildUi } from "../../ui/build.ts"
import bundle from "../support/bundle-setup.ts"

export default async function setup(): Promise<void> {
  await Promise.all([buildUi(), bundle()])
}
