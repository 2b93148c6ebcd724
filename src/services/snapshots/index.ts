export { recomputeSnapshots, type SnapshotContext } from "./recompute-snapshots.js";
