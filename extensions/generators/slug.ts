/** Slugs: derived from a generator's name, and made free by a numeric suffix (`-2`, `-3`...). */

const MAX_SLUG = 64

/** `"Café Menu: Spring!"` → `"cafe-menu-spring"`; a name with no letter or digit → `"generator"`. */
export const slugify = (name: string): string => {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, MAX_SLUG - 4)
    .replace(/^-+|-+$/g, "")
  return slug === "" ? "generator" : slug
}

/** `base` when it is free, else the first of `base-2`, `base-3`... that is. */
export const freeSlug = (base: string, taken: ReadonlySet<string>): string => {
  if (!taken.has(base)) return base
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`
    const candidate = `${base.slice(0, MAX_SLUG - suffix.length).replace(/-+$/, "")}${suffix}`
    if (!taken.has(candidate)) return candidate
  }
}
