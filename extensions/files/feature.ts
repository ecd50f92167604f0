/**
 * The files feature's services other features call through its contract: file access by scope
 * (contract/file-access.ts, over the FileSummaries port bound below it) and the PDF reader
 * (contract/pdf-reader.ts). Neither reads the other or anything as an option.
 */
import * as Layer from "effect/Layer"
import { FileAccessLive } from "./file-access.ts"
import { PdfReaderLive } from "./pdf-markdown.ts"

export const filesFeature = Layer.mergeAll(FileAccessLive, PdfReaderLive)
