// Golden traces of jetton transfers, run on the REAL compiled TEP-74 jetton contracts (the reference
// ft/jetton-wallet.fc + jetton-minter.fc and the USDT-style stablecoin contracts) inside @ton/sandbox,
// for devnet's JettonGoldenTracesTest (devnet/src/test/resources/vectors/jetton-traces.json).
//
//   cd tools/jetton-traces && npm ci && node generate.mjs > ../../devnet/src/test/resources/vectors/jetton-traces.json
//
// The contract code is read from the very BOCs devnet ships (devnet/src/main/resources/.../chain/jetton/,
// copied from ton4j's WalletCodes), so devnet and the sandbox run the same code cells and derive the
// same addresses. Every scenario is a list of steps devnet can replay with its own admin operations:
//   fund      an internal message from devnet's faucet address (non-bounceable, empty body)
//   deploy    an internal message from devnet's jetton admin address carrying the minter's StateInit
//   mint      the admin's mint message to the minter (the layout devnet's JettonAdmin builds)
//   status    (stablecoin) the admin's call_to(set_status) through the minter to a jetton wallet
//   external  a WalletV4R2 external message, signed here with a fixed key: devnet gets these exact bytes
// and each step records every transaction it caused, in the order the sandbox ran them (its message
// queue is first in, first out, as devnet's block is).
//
// Deterministic: fixed keys, fixed time (blockchain.now), Ed25519 signatures are deterministic.
// Running it again must reproduce the committed file byte for byte.
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { Blockchain, internal as sandboxInternal } from "@ton/sandbox";
import {
  Address, beginCell, Cell, contractAddress, external, internal, storeMessage, SendMode, TupleBuilder,
} from "@ton/core";
import { keyPairFromSeed } from "@ton/crypto";
import { WalletContractV4 } from "@ton/ton";

const RESOURCES = new URL("../../devnet/src/main/resources/org/tonpayouts/devnet/chain/jetton/", import.meta.url);
const codeCell = (name) =>
  Cell.fromBoc(Buffer.from(readFileSync(new URL(`${name}.boc.hex`, RESOURCES), "utf8").trim(), "hex"))[0];

const sha256 = (s) => createHash("sha256").update(s, "utf8").digest();
const hex = (b) => Buffer.from(b).toString("hex");

// ---- constants devnet uses as well (JettonAdmin, Chain.FAUCET, the test's keys) -----------------------
const NOW = 1780000000;                       // 2026-05-28T20:26:40Z; devnet's clock is fixed here too
const VALID_UNTIL = NOW + 60;
const FAUCET = new Address(-1, sha256("devnet faucet"));
const ADMIN = new Address(0, sha256("devnet jetton admin"));
const DEPLOY_VALUE = 1_500_000_000n;          // admin -> minter with the StateInit
const MINT_VALUE = 100_000_000n;              // admin -> minter, mint
const MINT_TON_AMOUNT = 50_000_000n;          // minter -> new jetton wallet
const STATUS_VALUE = 100_000_000n;            // admin -> minter, call_to(set_status)
const STATUS_TON_AMOUNT = 50_000_000n;        // minter -> jetton wallet
const SUBWALLET_ID = 698983191;
const OWNER_FUNDS = 10_000_000_000n;

const OP = {
  transfer: 0x0f8a7ea5, internalTransfer: 0x178d4519, refMint: 21, stableMint: 0x642b7d07,
  callTo: 0x235caf52, setStatus: 0xeed236d3, topUp: 0xd372158c,
};

// Test keys only: never fund these on mainnet.
const OWNER_SEED = "ton-payouts jetton owner";
const INTRUDER_SEED = "ton-payouts jetton intruder";
const NEW_RECEIVER = new Address(0, sha256("ton-payouts jetton receiver new"));
const EXISTING_RECEIVER = new Address(0, sha256("ton-payouts jetton receiver existing"));

// ---- the two jetton implementations ----------------------------------------------------------------
const FLAVORS = {
  reference: {
    walletCode: codeCell("reference-wallet"),
    minterCode: codeCell("reference-minter"),
    uri: "devnet:jetton/reference",
    // TEP-64 off-chain content: 0x01 then the URI
    minterData(f) {
      const content = beginCell().storeUint(1, 8).storeBuffer(Buffer.from(f.uri, "utf8")).endCell();
      return beginCell().storeCoins(0).storeAddress(ADMIN).storeRef(content).storeRef(f.walletCode).endCell();
    },
    walletData: (f, owner, master) =>
      beginCell().storeCoins(0).storeAddress(owner).storeAddress(master).storeRef(f.walletCode).endCell(),
    deployBody: () => Cell.EMPTY,
    mintBody: (queryId, to, jettonAmount) => beginCell()
      .storeUint(OP.refMint, 32).storeUint(queryId, 64).storeAddress(to).storeCoins(MINT_TON_AMOUNT)
      .storeRef(mintedTransfer(queryId, jettonAmount))
      .endCell(),
  },
  stablecoin: {
    walletCode: codeCell("stablecoin-wallet"),
    minterCode: codeCell("stablecoin-minter"),
    uri: "devnet:jetton/stablecoin",
    // metadata_uri: the URI's bytes, no prefix (get_jetton_data builds the on-chain content from it)
    minterData(f) {
      const uri = beginCell().storeBuffer(Buffer.from(f.uri, "utf8")).endCell();
      return beginCell().storeCoins(0).storeAddress(ADMIN).storeAddress(null).storeRef(f.walletCode).storeRef(uri)
        .endCell();
    },
    walletData: (f, owner, master) =>
      beginCell().storeUint(0, 4).storeCoins(0).storeAddress(owner).storeAddress(master).endCell(),
    deployBody: () => beginCell().storeUint(OP.topUp, 32).storeUint(0, 64).endCell(),
    mintBody: (queryId, to, jettonAmount) => beginCell()
      .storeUint(OP.stableMint, 32).storeUint(queryId, 64).storeAddress(to).storeCoins(MINT_TON_AMOUNT)
      .storeRef(mintedTransfer(queryId, jettonAmount))
      .endCell(),
  },
};

/** The internal_transfer a mint carries: from the admin, no response, no forward. */
function mintedTransfer(queryId, jettonAmount) {
  return beginCell()
    .storeUint(OP.internalTransfer, 32).storeUint(queryId, 64).storeCoins(jettonAmount)
    .storeAddress(ADMIN)          // from
    .storeAddress(null)           // response_address: none, so no excess
    .storeCoins(0)                // forward_ton_amount
    .storeBit(false)              // forward_payload: empty, inline
    .endCell();
}

function minterInit(f) {
  return { code: f.minterCode, data: f.minterData(f) };
}

function jettonWalletAddress(f, owner, master) {
  return contractAddress(0, { code: f.walletCode, data: f.walletData(f, owner, master) });
}

/** A text comment as a forward payload: 0x00000000 then UTF-8. */
function comment(text) {
  return beginCell().storeUint(0, 32).storeBuffer(Buffer.from(text, "utf8")).endCell();
}

/**
 * transfer#0f8a7ea5 query_id amount destination response_destination custom_payload:(Maybe ^Cell)
 * forward_ton_amount forward_payload:(Either Cell ^Cell). {@code payload}: "none" (bit 0, nothing),
 * {inline: cell}, {ref: cell}, "missing" (no Either bit at all: the reference throws 708),
 * {refWithExtra: cell} (bit 1, the ref, then 8 more bits: the stablecoin throws 49).
 */
function transferBody({ queryId, amount, destination, response, forwardTon, payload }) {
  const b = beginCell()
    .storeUint(OP.transfer, 32).storeUint(queryId, 64).storeCoins(amount)
    .storeAddress(destination).storeAddress(response)
    .storeBit(false)              // custom_payload: none
    .storeCoins(forwardTon);
  if (payload === "none") {
    b.storeBit(false);
  } else if (payload === "missing") {
    // nothing
  } else if (payload.inline) {
    b.storeBit(false).storeSlice(payload.inline.beginParse());
  } else if (payload.ref) {
    b.storeBit(true).storeRef(payload.ref);
  } else if (payload.refWithExtra) {
    b.storeBit(true).storeRef(payload.refWithExtra).storeUint(0xAB, 8);
  } else {
    throw new Error("unknown payload " + JSON.stringify(payload));
  }
  return b.endCell();
}

// ---- recording -------------------------------------------------------------------------------------
const raw = (a) => (a ? a.toRawString() : null);

function messageRecord(m) {
  const rec = { type: m.info.type };
  if (m.info.type === "internal") {
    Object.assign(rec, {
      source: raw(m.info.src), destination: raw(m.info.dest), value: m.info.value.coins.toString(),
      bounce: m.info.bounce, bounced: m.info.bounced, fwdFee: m.info.forwardFee.toString(),
    });
  } else if (m.info.type === "external-in") {
    rec.destination = raw(m.info.dest);
  } else {
    rec.source = raw(m.info.src);
  }
  rec.init = m.init ? hex(beginCell().storeUint(0, 2)
    .storeMaybeRef(m.init.code).storeMaybeRef(m.init.data).storeUint(0, 1).endCell().hash()) : null;
  rec.bodyHash = hex(m.body.hash());
  rec.body = m.body.toBoc({ idx: false, crc32: false }).toString("base64");
  return rec;
}

function transactionRecord(tx) {
  const d = tx.description;
  if (d.type !== "generic") throw new Error("unexpected transaction type " + d.type);
  const c = d.computePhase;
  const rec = {
    account: raw(tx.inMessage.info.dest),
    in: messageRecord(tx.inMessage),
    out: [...tx.outMessages.keys()].sort((a, b) => a - b).map((k) => messageRecord(tx.outMessages.get(k))),
    origStatus: tx.oldStatus, endStatus: tx.endStatus,
    computeSkipped: c.type === "skipped",
    computeSuccess: c.type === "vm" ? c.success : false,
    exitCode: c.type === "vm" ? c.exitCode : null,
    gasUsed: c.type === "vm" ? c.gasUsed.toString() : null,
    gasFees: c.type === "vm" ? c.gasFees.toString() : null,
    actionSuccess: d.actionPhase ? d.actionPhase.success : null,
    actionResultCode: d.actionPhase ? d.actionPhase.resultCode : null,
    actionFwdFees: d.actionPhase && d.actionPhase.totalFwdFees != null ? d.actionPhase.totalFwdFees.toString() : null,
    aborted: d.aborted,
    bounce: d.bouncePhase ? d.bouncePhase.type : null,
    totalFees: tx.totalFees.coins.toString(),
  };
  return rec;
}

async function send(bc, message) {
  const result = await bc.sendMessage(message);
  return result.transactions.map(transactionRecord);
}

// ---- one scenario ----------------------------------------------------------------------------------
class Scenario {
  constructor(name, flavorName, description) {
    this.name = name;
    this.flavorName = flavorName;
    this.flavor = FLAVORS[flavorName];
    this.description = description;
    this.steps = [];
    this.roles = {};
  }

  async start() {
    this.bc = await Blockchain.create();
    this.bc.now = NOW;
    this.master = contractAddress(0, minterInit(this.flavor));
    this.role("master", this.master);
    this.owner = this.wallet(OWNER_SEED, "owner");
    await this.fund(this.owner.address, OWNER_FUNDS);
    await this.deploy();
    return this;
  }

  role(name, address) {
    this.roles[name] = raw(address);
  }

  wallet(seedText, role) {
    const keys = keyPairFromSeed(sha256(seedText));
    const contract = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey, walletId: SUBWALLET_ID });
    const w = { seedText, keys, contract, address: contract.address, seqno: 0, role };
    this.role(role, w.address);
    this.role(role + "JettonWallet", jettonWalletAddress(this.flavor, w.address, this.master));
    return w;
  }

  async fund(address, amount) {
    const transactions = await send(this.bc,
      sandboxInternal({ from: FAUCET, to: address, value: amount, bounce: false }));
    this.steps.push({ kind: "fund", address: raw(address), amount: amount.toString(), transactions });
  }

  async deploy() {
    const init = minterInit(this.flavor);
    const transactions = await send(this.bc, sandboxInternal({
      from: ADMIN, to: this.master, value: DEPLOY_VALUE, bounce: false, stateInit: init,
      body: this.flavor.deployBody(),
    }));
    this.steps.push({ kind: "deploy", flavor: this.flavorName, uri: this.flavor.uri, master: raw(this.master),
      transactions });
  }

  async mint(owner, amount, queryId) {
    const transactions = await send(this.bc, sandboxInternal({
      from: ADMIN, to: this.master, value: MINT_VALUE, bounce: true,
      body: this.flavor.mintBody(queryId, owner, amount),
    }));
    this.steps.push({ kind: "mint", owner: raw(owner), amount: amount.toString(), queryId: queryId.toString(),
      jettonWallet: raw(jettonWalletAddress(this.flavor, owner, this.master)), transactions });
  }

  /** Stablecoin only: call_to(set_status) through the minter, as the admin locks or unlocks a wallet. */
  async setStatus(owner, status, queryId) {
    const setStatus = beginCell().storeUint(OP.setStatus, 32).storeUint(queryId, 64).storeUint(status, 4).endCell();
    const body = beginCell().storeUint(OP.callTo, 32).storeUint(queryId, 64).storeAddress(owner)
      .storeCoins(STATUS_TON_AMOUNT).storeRef(setStatus).endCell();
    const transactions = await send(this.bc, sandboxInternal({
      from: ADMIN, to: this.master, value: STATUS_VALUE, bounce: true, body,
    }));
    this.steps.push({ kind: "status", owner: raw(owner), status, queryId: queryId.toString(), transactions });
  }

  /** The wallet's external message: one internal message to its own jetton wallet, mode 3, bounceable. */
  async transfer(wallet, { attach, ...transfer }) {
    const jettonWallet = jettonWalletAddress(this.flavor, this.owner.address, this.master); // always the owner's
    const body = transferBody(transfer);
    const signed = wallet.contract.createTransfer({
      seqno: wallet.seqno, secretKey: wallet.keys.secretKey, timeout: VALID_UNTIL,
      sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
      messages: [internal({ to: jettonWallet, value: attach, bounce: true, body })],
    });
    const message = external({ to: wallet.address, init: wallet.seqno === 0 ? wallet.contract.init : undefined,
      body: signed });
    const boc = beginCell().store(storeMessage(message)).endCell().toBoc().toString("base64");
    wallet.seqno++;
    const transactions = await send(this.bc, message);
    this.steps.push({ kind: "external", wallet: wallet.role, queryId: transfer.queryId.toString(), boc, transactions });
  }

  async finish() {
    const accounts = [];
    for (const [role, address] of Object.entries(this.roles)) {
      const contract = await this.bc.getContract(Address.parse(address));
      const state = contract.accountState?.type ?? "uninit";
      const rec = { role, address, status: contract.accountState ? state : "nonexist",
        balance: contract.balance.toString() };
      if (role.endsWith("JettonWallet") && state === "active") {
        const r = await this.bc.runGetMethod(Address.parse(address), "get_wallet_data");
        rec.jettonBalance = r.stackReader.readBigNumber().toString();
        rec.walletData = {
          owner: raw(r.stackReader.readAddress()), master: raw(r.stackReader.readAddress()),
          codeHash: hex(r.stackReader.readCell().hash()),
        };
        if (this.flavorName === "stablecoin") {
          rec.status = "active";
          rec.jettonStatus = Number((await this.bc.runGetMethod(Address.parse(address), "get_status"))
            .stackReader.readBigNumber());
        }
      }
      accounts.push(rec);
    }
    const jettonData = (await this.bc.runGetMethod(this.master, "get_jetton_data")).stackReader;
    const getMethods = {
      jettonData: {
        totalSupply: jettonData.readBigNumber().toString(), mintable: Number(jettonData.readBigNumber()),
        admin: raw(jettonData.readAddress()), contentHash: hex(jettonData.readCell().hash()),
        walletCodeHash: hex(jettonData.readCell().hash()),
      },
      walletAddresses: {},
    };
    for (const role of ["owner", "intruder", "newReceiver", "existingReceiver"]) {
      if (!this.roles[role]) continue;
      const args = new TupleBuilder();
      args.writeAddress(Address.parse(this.roles[role]));
      const r = await this.bc.runGetMethod(this.master, "get_wallet_address", args.build());
      const answer = raw(r.stackReader.readAddress());
      if (answer !== this.roles[role + "JettonWallet"]) {
        throw new Error(`${this.name}: get_wallet_address(${role}) = ${answer}, derived ${this.roles[role + "JettonWallet"]}`);
      }
      getMethods.walletAddresses[this.roles[role]] = answer;
    }
    return { name: this.name, flavor: this.flavorName, description: this.description, roles: this.roles,
      steps: this.steps, accounts, getMethods };
  }
}

// ---- the scenarios ---------------------------------------------------------------------------------
const JETTONS = 1_000_000_000n;             // minted to the owner in every scenario
const TON = 1_000_000_000n;

async function success(flavor, name, description, { existing, forwardTon, payload, response }) {
  const s = await new Scenario(name, flavor, description).start();
  await s.mint(s.owner.address, JETTONS, 1n);
  const receiver = existing ? EXISTING_RECEIVER : NEW_RECEIVER;
  s.role(existing ? "existingReceiver" : "newReceiver", receiver);
  s.role((existing ? "existingReceiver" : "newReceiver") + "JettonWallet",
    jettonWalletAddress(s.flavor, receiver, s.master));
  if (existing) {
    await s.mint(receiver, 5n, 2n);
  }
  await s.transfer(s.owner, {
    attach: TON / 10n, queryId: 0x1001n, amount: 100_000_000n, destination: receiver,
    response: response ? s.owner.address : null, forwardTon, payload,
  });
  return s.finish();
}

async function failure(flavor, name, description, transfer) {
  const s = await new Scenario(name, flavor, description).start();
  await s.mint(s.owner.address, JETTONS, 1n);
  s.role("newReceiver", NEW_RECEIVER);
  s.role("newReceiverJettonWallet", jettonWalletAddress(s.flavor, NEW_RECEIVER, s.master));
  let sender = s.owner;
  if (transfer.intruder) {
    sender = s.wallet(INTRUDER_SEED, "intruder");
    await s.fund(sender.address, OWNER_FUNDS);
  }
  await s.transfer(sender, {
    attach: transfer.attach ?? TON / 10n, queryId: 0x2001n, amount: transfer.amount ?? 100_000_000n,
    destination: NEW_RECEIVER, response: sender.address, forwardTon: 0n, payload: transfer.payload ?? "none",
  });
  return s.finish();
}

async function lockedReceiver() {
  const s = await new Scenario("stablecoin-locked-receiver", "stablecoin",
    "the receiver's stablecoin wallet is locked for incoming transfers (status 2): it throws 45, the bounce "
    + "re-credits the sender jetton wallet, the owner's wallet sees nothing").start();
  await s.mint(s.owner.address, JETTONS, 1n);
  s.role("existingReceiver", EXISTING_RECEIVER);
  s.role("existingReceiverJettonWallet", jettonWalletAddress(s.flavor, EXISTING_RECEIVER, s.master));
  await s.mint(EXISTING_RECEIVER, 5n, 2n);
  await s.setStatus(EXISTING_RECEIVER, 2, 3n);
  await s.transfer(s.owner, {
    attach: TON / 10n, queryId: 0x3001n, amount: 100_000_000n, destination: EXISTING_RECEIVER,
    response: s.owner.address, forwardTon: 10_000_000n, payload: { inline: comment("locked") },
  });
  return s.finish();
}

async function lockedSender() {
  const s = await new Scenario("stablecoin-locked-sender", "stablecoin",
    "the owner's stablecoin wallet is locked for outgoing transfers (status 1): 45, bounced to the owner").start();
  await s.mint(s.owner.address, JETTONS, 1n);
  s.role("newReceiver", NEW_RECEIVER);
  s.role("newReceiverJettonWallet", jettonWalletAddress(s.flavor, NEW_RECEIVER, s.master));
  await s.setStatus(s.owner.address, 1, 2n);
  await s.transfer(s.owner, {
    attach: TON / 10n, queryId: 0x4001n, amount: 100_000_000n, destination: NEW_RECEIVER,
    response: s.owner.address, forwardTon: 0n, payload: "none",
  });
  return s.finish();
}

const scenarios = [];
for (const flavor of ["reference", "stablecoin"]) {
  scenarios.push(await success(flavor, `${flavor}-new-receiver`,
    "transfer to an owner without a jetton wallet (deployed by the internal_transfer's StateInit), forward 0, "
    + "response to the owner: an excess, no notification",
    { existing: false, forwardTon: 0n, payload: "none", response: true }));
  scenarios.push(await success(flavor, `${flavor}-existing-receiver-comment`,
    "transfer to an owner whose jetton wallet exists, forward 0.02 TON with an inline text comment: "
    + "a notification carrying the comment and an excess",
    { existing: true, forwardTon: 20_000_000n, payload: { inline: comment("payout 7") }, response: true }));
  scenarios.push(await success(flavor, `${flavor}-no-response`,
    "forward 0.01 TON with the comment in a reference, no response destination: a notification, no excess",
    { existing: false, forwardTon: 10_000_000n, payload: { ref: comment("payout 8 in a reference") },
      response: false }));
}
scenarios.push(await failure("reference", "reference-705-not-owner",
  "another V4R2 wallet sends transfer to the owner's jetton wallet: 705, bounced to it", { intruder: true }));
scenarios.push(await failure("reference", "reference-706-balance",
  "more jettons than the wallet holds: 706, bounced", { amount: JETTONS + 1n }));
scenarios.push(await failure("reference", "reference-708-payload",
  "no forward_payload Either bit: the 2022 code ton4j ships has no 708 check, the transfer goes through",
  { payload: "missing" }));
scenarios.push(await failure("reference", "reference-709-ton",
  "0.01 TON attached: 709, bounced", { attach: 10_000_000n }));
scenarios.push(await failure("stablecoin", "stablecoin-73-not-owner",
  "another V4R2 wallet sends transfer to the owner's jetton wallet: 73, bounced to it", { intruder: true }));
scenarios.push(await failure("stablecoin", "stablecoin-47-balance",
  "more jettons than the wallet holds: 47, bounced", { amount: JETTONS + 1n }));
scenarios.push(await failure("stablecoin", "stablecoin-49-payload",
  "forward_payload in a reference followed by extra bits: 49, bounced",
  { payload: { refWithExtra: comment("extra") } }));
scenarios.push(await failure("stablecoin", "stablecoin-48-ton",
  "0.005 TON attached: 48, bounced", { attach: 5_000_000n }));
scenarios.push(await failure("stablecoin", "stablecoin-missing-payload-bit",
  "no forward_payload Either bit: reading it is a cell underflow, 9, bounced", { payload: "missing" }));
scenarios.push(await lockedReceiver());
scenarios.push(await lockedSender());

const walletCodeHash = (f) => hex(FLAVORS[f].walletCode.hash());
const out = {
  generator: "tools/jetton-traces/generate.mjs",
  sandbox: JSON.parse(readFileSync(new URL("./node_modules/@ton/sandbox/package.json", import.meta.url))).version,
  now: NOW,
  validUntil: VALID_UNTIL,
  faucet: raw(FAUCET),
  admin: raw(ADMIN),
  subwalletId: SUBWALLET_ID,
  keys: { owner: OWNER_SEED, intruder: INTRUDER_SEED },
  codeHashes: {
    referenceWallet: walletCodeHash("reference"), referenceMinter: hex(FLAVORS.reference.minterCode.hash()),
    stablecoinWallet: walletCodeHash("stablecoin"), stablecoinMinter: hex(FLAVORS.stablecoin.minterCode.hash()),
  },
  scenarios,
};
process.stdout.write(JSON.stringify(out, null, 1) + "\n");
