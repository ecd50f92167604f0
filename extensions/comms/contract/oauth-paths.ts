/** Where a being's browser starts and finishes a plugin provider's consent (`<namespace>.<id>` in the path). */
export const pluginConsentPath = (provider: string) => `/api/connections/${provider}/auth`
export const pluginCallbackPath = (provider: string) => `/api/connections/${provider}/callback`
