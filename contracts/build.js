#!/usr/bin/env node
// Compiles every contract under src/ with the pinned solc-js and writes one
// artifact per deployable contract to build/<Name>.json (abi, bin,
// deployedBin). The output is byte-for-byte reproducible: sources are read in
// sorted order under stable relative paths, keys are sorted, and no metadata
// hash is appended to the bytecode.
//
// Usage: node build.js [outDir]   (default: build)

'use strict';

const fs = require('fs');
const path = require('path');
const solc = require('solc');

const root = __dirname;
const srcDir = path.join(root, 'src');
const outDir = path.resolve(root, process.argv[2] || 'build');

// The settings are part of the build's identity: changing any of them
// changes the committed artifacts, which check.sh then requires to be
// regenerated.
const settings = {
  evmVersion: 'paris',
  viaIR: true,
  optimizer: { enabled: true, runs: 200 },
  metadata: { bytecodeHash: 'none', appendCBOR: false },
  outputSelection: {
    '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] },
  },
};

function listSources(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSources(full));
    else if (entry.name.endsWith('.sol')) out.push(full);
  }
  return out.sort();
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
    return out;
  }
  return value;
}

const sources = {};
for (const file of listSources(srcDir)) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  sources[rel] = { content: fs.readFileSync(file, 'utf8') };
}

function findImports(p) {
  const full = path.join(root, p);
  if (fs.existsSync(full)) return { contents: fs.readFileSync(full, 'utf8') };
  return { error: 'not found: ' + p };
}

const input = { language: 'Solidity', sources, settings };
const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));

let failed = false;
for (const err of output.errors || []) {
  process.stderr.write(err.formattedMessage || err.message);
  if (err.severity === 'error') failed = true;
}
if (failed) process.exit(1);

const artifacts = {};
for (const file of Object.keys(output.contracts || {}).sort()) {
  for (const name of Object.keys(output.contracts[file]).sort()) {
    const c = output.contracts[file][name];
    const bin = c.evm.bytecode.object;
    if (!bin) continue; // abstract contract or interface
    if (artifacts[name]) {
      process.stderr.write(`duplicate contract name ${name} in ${file}\n`);
      process.exit(1);
    }
    artifacts[name] = {
      abi: c.abi,
      bin: '0x' + bin,
      compiler: 'solc-' + solc.version(),
      deployedBin: '0x' + c.evm.deployedBytecode.object,
      source: file,
    };
  }
}

fs.mkdirSync(outDir, { recursive: true });
for (const old of fs.readdirSync(outDir)) {
  if (old.endsWith('.json') && !artifacts[old.slice(0, -5)]) fs.unlinkSync(path.join(outDir, old));
}
for (const name of Object.keys(artifacts)) {
  const text = JSON.stringify(sortKeys(artifacts[name]), null, 2) + '\n';
  fs.writeFileSync(path.join(outDir, name + '.json'), text);
}
process.stdout.write(`compiled ${Object.keys(artifacts).length} contracts with solc ${solc.version()} into ${path.relative(process.cwd(), outDir) || '.'}\n`);
