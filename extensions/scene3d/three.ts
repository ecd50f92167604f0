/**
 * The one pinned version of three.js every scene imports (the spec's 0.170.0), where a scene
 * opened from disk gets it (a public CDN) and where the node serves its own copy from the npm
 * package (`three` pinned at the same version), so a scene previewed through the node works offline.
 */
export const threeVersion = "0.170.0"
export const threeCdnUrl = `https://cdn.jsdelivr.net/npm/three@${threeVersion}/build/three.module.js`
/**
 * Served without a session and to any origin: a preview runs in an opaque origin, and the file is the public package's.
 */
export const threeNodePath = `/api/vendor/three@${threeVersion}/three.module.js`
