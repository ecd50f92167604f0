/**
 * Every feature's settings, in one list: each feature declares its own `Config` beside its code
 * (kernel/settings.ts holds only what the runtime itself reads) and adds one line here. The node
 * provides them all, with a test's overrides; test/unit/shape/settings-docs.test.ts checks the
 * table in docs/operations.md against exactly these configs.
 */
import * as Layer from "effect/Layer"
import { settingsConfig, Settings, type SettingsShape } from "../kernel/settings.ts"
import { ModelSettings, modelSettingsConfig, type ModelSettingsShape } from "../extensions/models/settings.ts"
import { ProjectSettings, projectSettingsConfig, type ProjectSettingsShape } from "../actors/project/settings.ts"
import { webSettingsConfig, webSettingsLayer } from "../extensions/network/settings.ts"
import type { WebSettingsShape } from "../extensions/network/contract/web-settings.ts"
import { AuthSettings, authSettingsConfig, type AuthSettingsShape } from "../extensions/accounts/settings.ts"
import { MailSettings, mailSettingsConfig, type MailSettingsShape } from "../extensions/mail/settings.ts"
import { FilesSettings, filesSettingsConfig, type FilesSettingsShape } from "../extensions/files/settings.ts"
import { SandboxSettings, sandboxSettingsConfig, type SandboxSettingsShape } from "../extensions/sandbox/settings.ts"
import { TwinSettings, twinSettingsConfig, type TwinSettingsShape } from "../extensions/twin/settings.ts"
import {
  ChatBridgeSettings,
  chatBridgeSettingsConfig,
  type ChatBridgeSettingsShape
} from "../extensions/twin/chat-bridge/settings.ts"
import { integrationSettingsConfig, integrationSettingsLayer } from "../extensions/comms/settings.ts"
import type { IntegrationSettingsShape } from "../extensions/comms/contract/integration-settings.ts"
import { MarketSettings, marketSettingsConfig, type MarketSettingsShape } from "../extensions/market/settings.ts"
import { HealthSettings, healthSettingsConfig, type HealthSettingsShape } from "../extensions/health/settings.ts"
import {
  FederationSettings,
  federationSettingsConfig,
  type FederationSettingsShape
} from "../extensions/federation/settings.ts"
import { BackupsSettings, backupsSettingsConfig, type BackupsSettingsShape } from "../extensions/backups/settings.ts"
import { PushSettings, pushSettingsConfig, type PushSettingsShape } from "../extensions/push/settings.ts"

/** Each feature's Config, by feature: what the environment may set. */
export const featureSettingConfigs = {
  node: settingsConfig,
  auth: authSettingsConfig,
  mail: mailSettingsConfig,
  models: modelSettingsConfig,
  project: projectSettingsConfig,
  web: webSettingsConfig,
  files: filesSettingsConfig,
  twin: twinSettingsConfig,
  chatBridge: chatBridgeSettingsConfig,
  sandbox: sandboxSettingsConfig,
  integrations: integrationSettingsConfig,
  market: marketSettingsConfig,
  federation: federationSettingsConfig,
  health: healthSettingsConfig,
  backups: backupsSettingsConfig,
  push: pushSettingsConfig
}

/** The union of every feature's settings: a test overrides any of them in one object. */
export type NodeSettings = SettingsShape &
  AuthSettingsShape &
  MailSettingsShape &
  ModelSettingsShape &
  ProjectSettingsShape &
  WebSettingsShape &
  FilesSettingsShape &
  TwinSettingsShape &
  ChatBridgeSettingsShape &
  SandboxSettingsShape &
  IntegrationSettingsShape &
  MarketSettingsShape &
  FederationSettingsShape &
  HealthSettingsShape &
  BackupsSettingsShape &
  PushSettingsShape

/** Every feature's settings layer, read from the environment with the given overrides on top. */
export const nodeSettingsLayer = (overrides: Partial<NodeSettings> = {}) =>
  Layer.mergeAll(
    Settings.layerWith(overrides),
    AuthSettings.layer(overrides),
    MailSettings.layer(overrides),
    ModelSettings.layer(overrides),
    ProjectSettings.layer(overrides),
    webSettingsLayer(overrides),
    FilesSettings.layer(overrides),
    TwinSettings.layer(overrides),
    ChatBridgeSettings.layer(overrides),
    SandboxSettings.layer(overrides),
    integrationSettingsLayer(overrides),
    MarketSettings.layer(overrides),
    FederationSettings.layer(overrides),
    HealthSettings.layer(overrides),
    BackupsSettings.layer(overrides),
    PushSettings.layer(overrides)
  )
