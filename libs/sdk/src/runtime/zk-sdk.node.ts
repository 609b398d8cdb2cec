// The packaged SDK's zk-sdk (libs/sdk/build.mjs puts it in place of @cts/crypto's, which redirects
// Node's module resolution for the whole workspace: not something a library may do to its users).
import * as zk from '@solana/zk-sdk/node';

export { zk };
