#!/usr/bin/env node
// Package bin "messenger": Node 24 strips the types of main/cli.ts when it loads it, so there is no
// build step. (Node refuses type stripping for files under node_modules: installed as a dependency,
// this bin needs a compiled copy; from a clone or a global link it runs as is.)
import { run } from '../main/cli.ts';

await run();
