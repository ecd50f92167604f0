// The element tests run in mocha inside the browser (@web/test-runner), whose `describe`, `it` and
// hooks are globals; the tsconfig's `types` names only node, so the test folder names mocha here.
/// <reference types="mocha" />
