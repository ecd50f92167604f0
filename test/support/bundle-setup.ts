/**
 * The node's bundle, made once before the tests (vitest's global set-up): the nodes tests start as processes load it
 * (host/bundled-start.ts), and two of them starting at once on a changed tree would each bundle it.
 */
import { ensureServerBundle } from "../../host/server-bundle.ts"

export default async function setup(): Promise<void> {
  const bundle = await ensureServerBundle()
  if (bundle.built) console.log(bundle.line)
}
