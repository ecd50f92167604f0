/** The node's version: the one in package.json. */
import { readFileSync } from "node:fs"

export const hostVersion: string = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version
