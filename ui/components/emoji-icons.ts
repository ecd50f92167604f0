/**
 * The node's records carry emoji for their pictures (a generator's `icon`, an agent's `avatar`);
 * the app draws them as SVG icons instead, since a machine without an emoji font shows an emoji
 * as an empty box. The emoji the seeds use each have their icon; any other (a person's own
 * generator or agent) gets the fallback the caller names.
 */
import {
  mdiAccountOutline,
  mdiBullhornOutline,
  mdiCalendarWeek,
  mdiChartBar,
  mdiClipboardCheckOutline,
  mdiCompassOutline,
  mdiCreation,
  mdiFileDocumentEditOutline,
  mdiFileDocumentOutline,
  mdiFountainPenTip,
  mdiMagnify,
  mdiMarker,
  mdiNoteTextOutline,
  mdiPaletteOutline,
  mdiRobotOutline,
  mdiScaleBalance,
  mdiTools
} from "@mdi/js"

const byEmoji: ReadonlyMap<string, string> = new Map([
  // Generators (seeds/generators) and the default of a generator without one.
  ["📄", mdiFileDocumentOutline],
  ["🗒", mdiNoteTextOutline],
  ["🗓", mdiCalendarWeek],
  ["⚖", mdiScaleBalance],
  ["🔎", mdiMagnify],
  ["📝", mdiFileDocumentEditOutline],
  ["✨", mdiCreation],
  // Personas (seeds/personas.ts) and the default of an agent without an avatar.
  ["🧭", mdiCompassOutline],
  ["✍", mdiFountainPenTip],
  ["🖍", mdiMarker],
  ["🛠", mdiTools],
  ["🎨", mdiPaletteOutline],
  ["📊", mdiChartBar],
  ["📣", mdiBullhornOutline],
  ["🧐", mdiClipboardCheckOutline],
  ["🤖", mdiRobotOutline],
  // A person in a crew's seat (actors/project/team.ts).
  ["🧑", mdiAccountOutline]
])

/** The presentation selector (U+FE0F) makes "🗓️" and "🗓" the same picture. */
const iconPathFor = (emoji: string, fallback: string): string =>
  byEmoji.get(emoji.replace(/\uFE0F/g, "").trim()) ?? fallback

export const generatorIconPath = (emoji: string): string => iconPathFor(emoji, mdiCreation)

export const agentIconPath = (emoji: string): string => iconPathFor(emoji, mdiRobotOutline)
