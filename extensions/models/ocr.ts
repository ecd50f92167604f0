/**
 * One page image read by the 'ocr' tier: the file-parser step before a model reads a scanned PDF
 * (files.read through the llm adapter, the twin's file indexing). Null when no ocr model is bound,
 * so the page is noted as unread instead of failing the whole read.
 */
import * as Effect from "effect/Effect"
import type { ModelsShape } from "./contract/models.ts"

const instruction =
  "Transcribe every word on this scanned page as markdown, in reading order. Answer with the transcription only."

export const readPageImage = (
  models: ModelsShape,
  charged: { readonly purpose: string; readonly beingId: string | null; readonly projectId: string | null },
  png: Uint8Array
) =>
  models
    .chat("ocr", {
      ...charged,
      messages: [
        { role: "system", content: instruction },
        {
          role: "user",
          content: [{ type: "image", url: `data:image/png;base64,${Buffer.from(png).toString("base64")}` }]
        }
      ]
    })
    .pipe(
      Effect.map((result): string | null => result.text),
      Effect.catchTag("ModelsUnavailable", () => Effect.succeed(null))
    )
