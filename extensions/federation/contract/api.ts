/**
 * The federation's routes (docs/api.md "Federation"). `federation` is the owner's: peers and
 * their handshake. `federationWire` is what other nodes call: no session, each request
 * authenticated by its signatures, so each is a signed wire route (exempt from the same-origin
 * check), counts in the `wire` rate class (one address cannot flood signature checks) and takes
 * a small body (FEDERATION_MAX_DOCUMENT_BYTES).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { BodyLimit, RateClass, WireRoute } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound, Unavailable } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import {
  AddPeer, DirectoryStatus, FederatedConversation, FederatedMessage, FederatedThread, FlushResult, NewConversation, OutboxParams, OwnIdentity, Peer, PeerPath,
  PeerRemoved, PeerSession, PeerUpdate, ThreadIdPath
} from "./records.ts"
import { AddPeerByHandle, RegistrationAnswer, Resolution, ResolveRequest, SignedRegistration } from "./directory.ts"
import { DepositReceipt, NodeRelayState, RelayEnrol, RelayEnrolment, RelayEnrolmentAnswer } from "./relay.ts"
import { DeliveryReceipt, PeerCollect, PeerCollection, PeerGreeting, PeerHello, SignedCapabilityProfile } from "./wire.ts"

export const MAX_DOCUMENT_BYTES_SETTING = "FEDERATION_MAX_DOCUMENT_BYTES"
export const DEFAULT_MAX_DOCUMENT_BYTES = 64 * 1024

export class FederationApi extends HttpApiGroup.make("federation")
  .add(HttpApiEndpoint.get("listPeers", "/federation/peers").addSuccess(Schema.Array(Peer)))
  .add(
    HttpApiEndpoint.post("addPeer", "/federation/peers")
      .setPayload(AddPeer)
      .addSuccess(PeerSession)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(HttpApiEndpoint.post("greetPeer", "/federation/peers/:id/greet").setPath(PeerPath).addSuccess(PeerSession).addError(NotFound.schema))
  .add(
    HttpApiEndpoint.patch("updatePeer", "/federation/peers/:id")
      .setPath(PeerPath)
      .setPayload(PeerUpdate)
      .addSuccess(Peer)
      .addError(NotFound.schema)
  )
  .add(HttpApiEndpoint.del("removePeer", "/federation/peers/:id").setPath(PeerPath).addSuccess(PeerRemoved).addError(NotFound.schema))
  .add(HttpApiEndpoint.get("listConversations", "/federation/conversations").addSuccess(Schema.Array(FederatedConversation)))
  .add(
    HttpApiEndpoint.post("openConversation", "/federation/conversations")
      .setPayload(NewConversation)
      .addSuccess(FederatedConversation)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
  )
  .add(HttpApiEndpoint.get("federatedThread", "/federation/threads/:id").setPath(ThreadIdPath).addSuccess(FederatedThread).addError(NotFound.schema))
  .add(HttpApiEndpoint.get("outbox", "/federation/outbox").setUrlParams(OutboxParams).addSuccess(Schema.Array(FederatedMessage)))
  .add(HttpApiEndpoint.post("flush", "/federation/flush").addSuccess(FlushResult))
  .add(HttpApiEndpoint.get("relayState", "/federation/relay").addSuccess(NodeRelayState))
  .add(HttpApiEndpoint.post("enrolRelay", "/federation/relay/enrol").addSuccess(RelayEnrolment))
  // Any signed-in being: its own did (the rest of the group is the owner's).
  .add(HttpApiEndpoint.get("me", "/federation/me").addSuccess(OwnIdentity))
  // The spec's "Directory" group holds only this route so far; it lives with the node's identity.
  .add(HttpApiEndpoint.get("directoryStatus", "/directory/status").addSuccess(DirectoryStatus))
  // Registers with DIRECTORY_ENDPOINT now, whatever is left of the listing (docs/federation.md "The directory").
  .add(HttpApiEndpoint.post("directoryRegister", "/directory/register").addSuccess(DirectoryStatus))
  // Resolves a handle at the directory, then the ordinary add-peer handshake with what it names.
  .add(
    HttpApiEndpoint.post("addPeerByHandle", "/directory/peers")
      .setPayload(AddPeerByHandle)
      .addSuccess(PeerSession)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .addError(Forbidden.schema)
  .addError(Unavailable.schema)
  .middleware(Authentication)
  .prefix("/api")
{}

export class FederationWireApi extends HttpApiGroup.make("federationWire")
  .add(HttpApiEndpoint.get("capabilities", "/federation/capabilities").addSuccess(SignedCapabilityProfile))
  .add(HttpApiEndpoint.post("hello", "/federation/peer/hello").setPayload(PeerHello).addSuccess(PeerGreeting))
  // Any JSON: a body of the wrong shape is the ladder's first refusal, in a receipt, never a 400.
  .add(HttpApiEndpoint.post("deliver", "/federation/peer/deliver").setPayload(Schema.Unknown).addSuccess(DeliveryReceipt))
  .add(HttpApiEndpoint.post("collect", "/federation/peer/collect").setPayload(PeerCollect).addSuccess(PeerCollection))
  // The relay's (docs/federation.md "The relay"): enrol with a key proof, deposit a sealed envelope, collect with a key proof.
  .add(HttpApiEndpoint.post("relayEnrolment", "/federation/relay/enrolment").setPayload(RelayEnrol).addSuccess(RelayEnrolmentAnswer))
  .add(HttpApiEndpoint.post("relayDeposit", "/federation/relay/deposit").setPayload(Schema.Unknown).addSuccess(DepositReceipt))
  .add(HttpApiEndpoint.post("relayCollect", "/federation/relay/collect").setPayload(PeerCollect).addSuccess(PeerCollection))
  // The directory's (docs/federation.md "The directory"): a registration signed by the node, a resolve answered signed.
  .add(HttpApiEndpoint.post("directoryRegistration", "/federation/directory/register").setPayload(SignedRegistration).addSuccess(RegistrationAnswer))
  .add(HttpApiEndpoint.post("directoryResolve", "/federation/directory/resolve").setPayload(ResolveRequest).addSuccess(Resolution))
  // What every route other nodes call declares: signed, its own rate class, a small body.
  .annotate(WireRoute, true)
  .annotate(RateClass, "wire")
  .annotate(BodyLimit, { bytes: DEFAULT_MAX_DOCUMENT_BYTES, setting: MAX_DOCUMENT_BYTES_SETTING })
  .prefix("/api")
{}
