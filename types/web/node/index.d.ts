// Deliberately empty. tsconfig.web.json resolves `/// <reference types="node" />` here (typeRoots), so a
// library whose declarations name Node (@types/papaparse does, for its Node stream API) cannot bring
// Buffer, process or the node:* modules into protocol/ and renderer/. skipLibCheck keeps the library's
// own unresolved Node names out of the report.
export {};
