/**
 * What the twin offers other features for connecting a provider, through its contract: the
 * connection secrets and consent grants (connection-secrets.ts), the provider registry
 * (contract/provider-registry.ts) and the OAuth client in force at a plugin provider
 * (contract/oauth-client-lookup.ts), and the secret box other features seal with (contract/secret-sealer.ts). The
 * consent flows of extensions/comms read them; the node lists
 * this layer below them.
 */
import * as Layer from "effect/Layer"
import { SecretSealerLive } from "./secret-sealer.ts"
import { ConnectionSecretsFeature } from "./connection-secrets.ts"
import { OAuthClientLookupLive } from "./oauth-clients.ts"
import { ProviderRegistryLive } from "./providers.ts"

export const ConnectionTagsLive = Layer.mergeAll(
  ConnectionSecretsFeature,
  ProviderRegistryLive,
  OAuthClientLookupLive,
  SecretSealerLive
)
