/**
 * The body of `POST /api/twin/voice/transcribe`, read by busboy into memory: one audio part (its
 * bytes collected in a list of buffers, never a file) and an optional `language` field. The
 * audio part is counted against MAX_TRANSCRIBE_BYTES as it streams (413), the whole body against
 * that plus the form's allowance. A refusal drops what was read; the rest of a body over the limit is
 * never read (the 413 closes the connection), the rest of a smaller refused one is read and dropped.
 */
import Busboy from "busboy"
import type { IncomingMessage } from "node:http"
import {
  InvalidLanguage,
  MalformedRecording,
  NoAudio,
  OneAudioPart,
  RecordingTooLarge,
  UnsupportedAudioFormat
} from "./contract/errors.ts"
import { audioFormats, TRANSCRIBE_FORM_ALLOWANCE, type AudioFormat } from "./voice/contract/records.ts"
import type { Recording } from "./voice/voice.ts"

type Refusal =
  | MalformedRecording
  | RecordingTooLarge
  | UnsupportedAudioFormat
  | InvalidLanguage
  | OneAudioPart
  | NoAudio
export type ReadRecording =
  | { readonly _tag: "Read"; readonly recording: Recording }
  | { readonly _tag: "Refused"; readonly error: Refusal }

const LANGUAGE_FIELD = "language"
/** ISO 639-1 ("en"), optionally with a region ("pt-BR"): what the transcription APIs take. */
const languagePattern = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/

/** The audio media types browsers and recorders send, by format. */
const formatByType: Readonly<Record<string, AudioFormat>> = {
  "audio/webm": "webm",
  "video/webm": "webm",
  "audio/ogg": "ogg",
  "audio/opus": "ogg",
  "audio/mp4": "mp4",
  "video/mp4": "mp4",
  "audio/m4a": "m4a",
  "audio/x-m4a": "m4a",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/wav": "wav",
  "audio/wave": "wav",
  "audio/x-wav": "wav",
  "audio/flac": "flac",
  "audio/x-flac": "flac"
}

/** The part's format from its media type, else from its file name's extension (a generic type says nothing). */
const formatOf = (mimeType: string, filename: string): AudioFormat | null => {
  const byType = formatByType[mimeType.split(";")[0]!.trim().toLowerCase()]
  if (byType !== undefined) return byType
  const ext = filename.slice(filename.lastIndexOf(".") + 1).toLowerCase()
  return (audioFormats as ReadonlyArray<string>).includes(ext) ? (ext as AudioFormat) : null
}

const tooLarge = (limit: number) =>
  new RecordingTooLarge({
    message: `The recording is larger than this node transcribes (at most ${limit} bytes of audio).`,
    details: { limitBytes: limit }
  })

export const readRecording = (source: IncomingMessage, maxAudioBytes: number) =>
  new Promise<ReadRecording>((resolve) => {
    const chunks: Array<Buffer> = []
    let audio: { readonly filename: string; readonly mimeType: string; readonly format: AudioFormat } | null = null
    let language: string | null = null
    let received = 0
    let settled = false
    let parser: Busboy.Busboy
    let part: (NodeJS.ReadableStream & { destroy: (error?: Error) => void }) | null = null
    const limit = maxAudioBytes + TRANSCRIBE_FORM_ALLOWANCE
    const finish = (result: ReadRecording) => {
      if (settled) return
      settled = true
      if (result._tag === "Read") source.off("data", count)
      else {
        source.unpipe(parser)
        part?.destroy()
        chunks.length = 0
        if (result.error._tag === "RecordingTooLarge") {
          // The rest of an oversize body is never read; the 413 closes the connection (kernel/http/refusal-response.ts).
          source.off("data", count)
          source.pause()
        } else {
          // A small refused body is read to its end and dropped, so the connection can carry the next
          // request and the client hears the refusal instead of a broken pipe; past the limit it is cut.
          source.resume()
        }
      }
      resolve(result)
    }
    const refuse = (error: Refusal) => finish({ _tag: "Refused", error })
    const count = (chunk: Buffer) => {
      received += chunk.length
      if (received <= limit) return
      if (settled) source.destroy()
      else refuse(tooLarge(maxAudioBytes))
    }

    try {
      parser = Busboy({
        headers: source.headers,
        limits: { files: 1, fields: 4, fieldSize: 64, parts: 5 }
      })
    } catch {
      return refuse(
        new MalformedRecording({ message: "Send the recording as multipart/form-data, with its boundary." })
      )
    }
    parser.on("file", (_field, stream, info) => {
      if (settled) return stream.resume()
      const format = formatOf(info.mimeType, info.filename ?? "")
      if (format === null) {
        stream.resume()
        return refuse(
          new UnsupportedAudioFormat({
            message: `The recording must be ${audioFormats.join(", ")} audio; its part says "${info.mimeType.slice(0, 100)}".`,
            details: { accepted: audioFormats }
          })
        )
      }
      audio = { filename: `recording.${format}`, mimeType: info.mimeType, format }
      part = stream
      let size = 0
      stream.on("data", (chunk: Buffer) => {
        if (settled) return
        size += chunk.length
        if (size > maxAudioBytes) return refuse(tooLarge(maxAudioBytes))
        chunks.push(chunk)
      })
      // A refusal destroys the part mid-stream; that is no further fault of the request's.
      stream.on("error", () => {})
    })
    parser.on("field", (field, value, info) => {
      if (field !== LANGUAGE_FIELD || settled) return
      const trimmed = value.trim()
      if (info.valueTruncated || (trimmed !== "" && !languagePattern.test(trimmed))) {
        return refuse(
          new InvalidLanguage({
            message: `The language field must be a language code like "en" or "pt-BR"; it is "${value.slice(0, 64)}".`
          })
        )
      }
      language = trimmed === "" ? null : trimmed
    })
    parser.on("filesLimit", () =>
      refuse(new OneAudioPart({ message: "Send exactly one audio part: this one has more." }))
    )
    parser.on("partsLimit", () =>
      refuse(new MalformedRecording({ message: "The form has too many parts: send one audio part and a language." }))
    )
    parser.on("error", () => refuse(new MalformedRecording({ message: "The multipart body could not be read." })))
    parser.on("close", () => {
      if (audio === null) {
        return refuse(
          new NoAudio({
            message: "Send one audio part (a form field with a filename) holding the recording."
          })
        )
      }
      const bytes = Buffer.concat(chunks)
      if (bytes.length === 0) return refuse(new NoAudio({ message: "The audio part is empty." }))
      finish({ _tag: "Read", recording: { audio: bytes, ...audio, language } })
    })
    source.on("data", count)
    source.once("aborted", () => refuse(new MalformedRecording({ message: "The recording was cut off." })))
    source.pipe(parser)
  })
