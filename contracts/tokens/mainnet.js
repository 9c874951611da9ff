#!/usr/bin/env node
// Compares the runtime code compiled from testdata/tokens/usdt/TetherToken.sol
// with the code deployed on Ethereum mainnet at
// 0xdAC17F958D2ee523a2206206994597C13D831ec7 (testdata/tokens/usdt/mainnet-runtime.hex).
//
// The last 43 bytes of solc 0.4.18's runtime code are the metadata section
// (0xa1 0x65 "bzzr0" 0x58 0x20 <32-byte swarm hash of the metadata> 0x00 0x29).
// That hash covers the source file's name and layout as Tether compiled it,
// which the flattened verified source does not reproduce; everything before
// it, the code itself, must be identical byte for byte.
//
// Usage: node mainnet.js <TetherToken.json>

'use strict';

const fs = require('fs');
const path = require('path');

const artifact = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const reference = fs
  .readFileSync(path.join(__dirname, '..', '..', 'testdata', 'tokens', 'usdt', 'mainnet-runtime.hex'), 'utf8')
  .trim();

const metadata = /a165627a7a72305820[0-9a-f]{64}0029$/;
function split(hex, what) {
  if (!/^0x[0-9a-f]+$/.test(hex) || !metadata.test(hex)) {
    process.stderr.write(`${what}: not solc 0.4 runtime code ending in a bzzr0 metadata section\n`);
    process.exit(1);
  }
  return { code: hex.slice(0, -86), hash: hex.slice(-68, -4) };
}

const ours = split(artifact.deployedBin, 'compiled TetherToken');
const mainnet = split(reference, 'mainnet-runtime.hex');
if (ours.code !== mainnet.code) {
  let i = 0;
  while (ours.code[i] === mainnet.code[i]) i++;
  process.stderr.write(
    `TetherToken compiled from testdata/tokens/usdt differs from mainnet's code at byte ${(i - 2) >> 1} ` +
      `(ours ${(ours.code.length - 2) / 2} bytes, mainnet ${(mainnet.code.length - 2) / 2} bytes before the metadata)\n`,
  );
  process.exit(1);
}
const hashNote = ours.hash === mainnet.hash ? 'metadata hash equal too' : `metadata hash ${mainnet.hash.slice(0, 8)}… on mainnet, ${ours.hash.slice(0, 8)}… here`;
process.stdout.write(`TetherToken runtime code equals mainnet's, ${(mainnet.code.length - 2) / 2} bytes (${hashNote})\n`);
