/**
 * The end-to-end tests run against the app as built from the current sources, and against the node's modules bundled
 * as `npm start` loads them (host/server-bundle.ts): bundled once here, so the files' nodes starting at once reuse it.
 */
import { ensureServerBundle } from "../../host/server-bundle.ts"
import { buildUi } from "../../ui/build.ts"

export default async function setup(): Promise<void> {
  await Promise.all([buildUi(), ensureServerBundle()])
}
