/**
 * Where a recording goes, as a person and a consent see it. The consent key is a fingerprint of
 * every part of the destination that decides where audio may end up: the tier's server (local or
 * remote), its base URL and model, and the fallback (whether one is allowed, and where it goes).
 * Any of them moving gives another key, which voids a consent to the old one. A key is not a
 * secret: it only names a destination, so it carries no API key.
 */
import { createHash } from "node:crypto"
import type { NodeSttStatus } from "./contract/records.ts"
import type { SttBindingShape, SttRoute } from "./ports.ts"

export type SttDestination = Omit<NodeSttStatus, "consented" | "consentedAt">

/** A base URL fit to show: the credentials a URL may carry are dropped. */
export const shownUrl = (baseUrl: string): string => {
  try {
    const url = new URL(baseUrl)
    url.username = ""
    url.password = ""
    return url.toString().replace(/\/$/, "")
  } catch {
    return baseUrl.slice(0, 200)
  }
}

const hostOf = (baseUrl: string): string => {
  try {
    return new URL(baseUrl).host
  } catch {
    return baseUrl.slice(0, 200)
  }
}

/** "gpt-4o-mini-transcribe at api.openai.com": a model on one server. */
export const placeOf = (route: { readonly model: string; readonly baseUrl: string }): string =>
  `${route.model} at ${hostOf(route.baseUrl)}`

const fingerprint = (binding: SttBindingShape): string => {
  const part = (route: SttRoute) => [route.local ? "local" : "remote", shownUrl(route.baseUrl), route.model]
  const parts = [...part(binding.route), binding.fallback === null ? "no-fallback" : part(binding.fallback)]
  return `stt1.${createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32)}`
}

const noteOf = (binding: SttBindingShape): string | null => {
  const { route, fallback } = binding
  const unpriced = [route, ...(fallback === null ? [] : [fallback])].filter((place) => !place.local && !place.priced)
  const notes = [
    ...(!route.local
      ? []
      : fallback === null
        ? ["Recordings stay on this host: the transcribe tier is a local server and LOCAL_LLM_FALLBACK is off."]
        : [
            `The local server transcribes first; when it fails, the recording goes to ${placeOf(fallback)} (LOCAL_LLM_FALLBACK is set).`
          ]),
    ...unpriced.map(
      (place) =>
        `No price per minute is known for ${place.model}: it is recorded at $0 and the spend ceilings cannot bound it. ` +
        `Name it in LLM_PRICES ({"${place.model}": {"perMinute": 0.006}}).`
    )
  ]
  return notes.length === 0 ? null : notes.join(" ")
}

export const destinationOf = (binding: SttBindingShape): SttDestination => {
  const { route, fallback } = binding
  const leavesDevice = !route.local || fallback !== null
  const usdPerMinute = Math.max(route.usdPerMinute, fallback?.usdPerMinute ?? 0)
  const destination = fallback === null ? placeOf(route) : `${placeOf(route)}, then ${placeOf(fallback)} if it fails`
  return {
    available: binding.available,
    reason: binding.reason,
    provider: !route.local ? "remote" : fallback === null ? "local" : "local+remote",
    requested: route.local ? "local" : "remote",
    model: route.model,
    baseUrl: shownUrl(route.baseUrl),
    leavesDevice,
    destination,
    costsMoney: usdPerMinute > 0,
    usdPerMinute,
    consentKey: fingerprint(binding),
    note: noteOf(binding)
  }
}
