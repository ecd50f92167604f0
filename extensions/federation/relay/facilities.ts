/**
 * The relay's wire paths (docs/federation.md "The relay"), and the facilities a relay announces in its capability
 * profile.
 */
import { CURRENT_PROTOCOL, type NodeFacility } from "../contract/wire.ts"

export const RELAY_PATHS = {
  capabilities: "/api/federation/capabilities",
  enrolment: "/api/federation/relay/enrolment",
  deposit: "/api/federation/relay/deposit",
  collect: "/api/federation/relay/collect"
} as const

export const relayFacilities: ReadonlyArray<NodeFacility> = [
  { name: "relay.enrolment", path: RELAY_PATHS.enrolment, protocol: CURRENT_PROTOCOL },
  { name: "relay.deposit", path: RELAY_PATHS.deposit, protocol: CURRENT_PROTOCOL },
  { name: "relay.collect", path: RELAY_PATHS.collect, protocol: CURRENT_PROTOCOL }
]
