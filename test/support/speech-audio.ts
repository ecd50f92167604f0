/**
 * Real media bytes for the scripted model server to answer with: half a second of silence as MP3
 * or WAV (what the speech API answers), built from their formats so a browser can play them, and
 * the smallest MP4 signature for a finished video.
 */

/** An MPEG-1 Layer III frame: 128 kbit/s, 44.1 kHz, mono, no CRC; all-zero side info and data decode as silence. */
const mp3Frame = (): Uint8Array => {
  const frame = new Uint8Array(417) // 144 × 128000 / 44100, no padding
  frame.set([0xff, 0xfb, 0x90, 0xc0])
  return frame
}

/** 20 frames of 1,152 samples: about half a second. */
const silentMp3 = (): Uint8Array => {
  const frame = mp3Frame()
  const clip = new Uint8Array(frame.byteLength * 20)
  for (let i = 0; i < 20; i++) clip.set(frame, i * frame.byteLength)
  return clip
}

/** A RIFF WAVE of 16-bit mono PCM silence at 8 kHz. */
const silentWav = (seconds = 0.5): Uint8Array => {
  const rate = 8000
  const dataBytes = Math.round(rate * seconds) * 2
  const bytes = new Uint8Array(44 + dataBytes)
  const view = new DataView(bytes.buffer)
  const text = (offset: number, value: string) =>
    [...value].forEach((char, i) => {
      view.setUint8(offset + i, char.charCodeAt(0))
    })
  text(0, "RIFF")
  view.setUint32(4, 36 + dataBytes, true)
  text(8, "WAVE")
  text(12, "fmt ")
  view.setUint32(16, 16, true)
  view.setUint16(20, 1, true) // PCM
  view.setUint16(22, 1, true) // mono
  view.setUint32(24, rate, true)
  view.setUint32(28, rate * 2, true)
  view.setUint16(32, 2, true)
  view.setUint16(34, 16, true)
  text(36, "data")
  view.setUint32(40, dataBytes, true)
  return bytes
}

/** Silence in the format the speech API was asked for; null for a format the scripted server does not make. */
export const silentSpeech = (format: string): Uint8Array | null =>
  format === "mp3" ? silentMp3() : format === "wav" ? silentWav() : null

/** An MP4's file type box (`ftyp`, brand isom): what a video answer starts with, not a playable clip. */
export const tinyMp4 = new Uint8Array([
  0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0x00, 0x00, 0x02, 0x00, 0x69, 0x73, 0x6f,
  0x6d, 0x6d, 0x70, 0x34, 0x31
])
