/**
 * A browser's navigation as the consent routes see it: the client's cookies sent, no redirect
 * followed, so a test walks each hop (the node, the provider's screen, the callback) itself.
 */
import type { Client } from "./client.ts"

export const navigate = async (client: Client, url: string) => {
  const response = await fetch(url, {
    redirect: "manual",
    headers: { ...client.headers, ...(client.cookieCount === 0 ? {} : { cookie: client.cookieHeader() }) }
  })
  return { status: response.status, location: response.headers.get("location"), text: await response.text() }
}
