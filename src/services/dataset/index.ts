export { buildDataset, type DatasetBuild, type DatasetBuildDeps, type DatasetFile } from "./build-dataset.js";
export { COLUMNS, type Column } from "./columns.js";
export { DATASET, DATASET_FILES, isDatasetFileName, type DatasetFileName } from "./constants.js";
export { findDatasetFile, listDatasets, type PublishedDataset, type PublishedFile } from "./list-datasets.js";
export { datasetEvidence, type DatasetEvidence } from "./evidence.js";
export { buildIfDue } from "./scheduler.js";
