/**
 * The images a document names, read from the call's file root only: a relative path inside the
 * workspace (or uploads folder), checked by the root like every file skill's path, PNG or JPEG
 * (what both DOCX and PDF embed), at most 10 MB each. A remote address is not fetched (the docs
 * skills do not use the network): it stays in the text as its alt text and address.
 */
import type * as ImageSize from "image-size"
import { lazyModule } from "../../kernel/lazy-module.ts"
import { describeFileError, type FileRoot, FileRootError, openRegularFile } from "../../kernel/extensions/file-root.ts"
import { SkillFailure } from "../../kernel/extensions/skill.ts"

/** Loaded at the first image measured: an idle node does not hold it. */
const imageSizeOf = lazyModule<typeof ImageSize>("image-size")

const maxImageBytes = 10 * 1024 * 1024

export interface LoadedImage {
  readonly data: Uint8Array
  readonly type: "png" | "jpg"
  /** Pixels. */
  readonly width: number
  readonly height: number
}

/** A src the writers leave as text: an address, not a file of the root. */
export const isRemote = (src: string) => /^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith("//")

const readWhole = async (root: FileRoot, src: string) => {
  const file = await root.resolve(decodeURI(src.split(/[?#]/)[0] ?? ""))
  if (file.path === "") throw new FileRootError(`The image "${src}" names no file.`)
  try {
    const handle = await openRegularFile(file.absolute, file.path)
    try {
      const { size } = await handle.stat()
      if (size > maxImageBytes)
        throw new SkillFailure({
          message: `The image "${file.path}" is ${size} bytes; at most ${maxImageBytes} are embedded.`
        })
      return { path: file.path, data: new Uint8Array(await handle.readFile()) }
    } finally {
      await handle.close()
    }
  } catch (error) {
    if (error instanceof SkillFailure) throw error
    throw describeFileError(error, file.path)
  }
}

const loadImage = async (root: FileRoot, src: string): Promise<LoadedImage> => {
  const { path, data } = await readWhole(root, src)
  let size: ReturnType<typeof ImageSize.imageSize>
  try {
    size = imageSizeOf().imageSize(data)
  } catch {
    throw new SkillFailure({ message: `"${path}" is not an image this writer can read (PNG or JPEG).` })
  }
  if (size.type !== "png" && size.type !== "jpg") {
    throw new SkillFailure({ message: `"${path}" is a ${size.type ?? "unknown"} image; documents embed PNG or JPEG.` })
  }
  return { data, type: size.type, width: size.width, height: size.height }
}

/** Each workspace image a document names, loaded once; a missing or refused one fails the call, naming it. */
export const loadImages = async (
  root: FileRoot,
  sources: ReadonlyArray<string>
): Promise<ReadonlyMap<string, LoadedImage>> => {
  const local = [...new Set(sources.filter((src) => !isRemote(src)))]
  const loaded = await Promise.all(local.map(async (src) => [src, await loadImage(root, src)] as const))
  return new Map(loaded)
}
