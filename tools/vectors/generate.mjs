// Generates WalletV4R2 vectors with the official TON JS SDK (@ton/ton, @ton/core, @ton/crypto),
// an implementation independent of ton4j, for ton/src/test/resources/vectors/wallet-v4r2.json.
//
//   cd tools/vectors && npm install && node generate.mjs > ../../ton/src/test/resources/vectors/wallet-v4r2.json
//
// Deterministic: fixed keys, fixed valid_until, Ed25519 signatures are deterministic. Running it
// again must reproduce the committed file byte for byte (the Java tests compare against it).
import { createHash } from "node:crypto";
import {
  Address, beginCell, external, internal, storeMessage, loadMessage, storeStateInit, Cell, SendMode,
} from "@ton/core";
import { keyPairFromSeed, mnemonicToPrivateKey, mnemonicValidate, signVerify } from "@ton/crypto";
import { WalletContractV4 } from "@ton/ton";

const sha256 = (s) => createHash("sha256").update(s, "utf8").digest();
const hex = (b) => Buffer.from(b).toString("hex");

// Test keys only: never fund these on mainnet.
const SEED_TEXT = "ton-payouts test seed v1";
// Generated once with mnemonicNew(24) and fixed here.
const MNEMONIC =
  "rule cousin spoon mechanic adult wonder pool juice solar panic inch celery warrior glory plunge brave brief leave smoke excite valley fit same legend";

const SUBWALLET_IDS = [0, 1, 698983191, 698983192, 4294967295];
const WORKCHAINS = [0, -1];
const VALID_UNTIL = 1767225600; // 2026-01-01T00:00:00Z

function addressForms(address) {
  return {
    raw: address.toRawString(),
    bounceable: address.toString({ bounceable: true, testOnly: false, urlSafe: true }),
    nonBounceable: address.toString({ bounceable: false, testOnly: false, urlSafe: true }),
    testnetBounceable: address.toString({ bounceable: true, testOnly: true, urlSafe: true }),
    testnetNonBounceable: address.toString({ bounceable: false, testOnly: true, urlSafe: true }),
    bounceableStandardBase64: address.toString({ bounceable: true, testOnly: false, urlSafe: false }),
  };
}

// TEP-467: ext_in_msg_info with src addr_none, import_fee 0, no StateInit, body always in a ref.
function normalizedHash(dest, body) {
  const normalized = {
    info: { type: "external-in", src: null, dest, importFee: 0n },
    init: undefined,
    body,
  };
  return beginCell().store(storeMessage(normalized, { forceRef: true })).endCell().hash();
}

function destination(label, workchain) {
  return new Address(workchain, sha256("ton-payouts destination " + label));
}

const seedKeys = keyPairFromSeed(sha256(SEED_TEXT));
if (!(await mnemonicValidate(MNEMONIC.split(" ")))) throw new Error("fixed mnemonic is invalid");
const mnemonicKeys = await mnemonicToPrivateKey(MNEMONIC.split(" "));

const keys = [
  { name: "seed", seedText: SEED_TEXT, seedHex: hex(seedKeys.secretKey.subarray(0, 32)), publicKey: hex(seedKeys.publicKey), kp: seedKeys },
  { name: "mnemonic", mnemonic: MNEMONIC, seedHex: hex(mnemonicKeys.secretKey.subarray(0, 32)), publicKey: hex(mnemonicKeys.publicKey), kp: mnemonicKeys },
];

const addresses = [];
for (const key of keys) {
  for (const workchain of WORKCHAINS) {
    for (const subwalletId of SUBWALLET_IDS) {
      const wallet = WalletContractV4.create({ workchain, publicKey: key.kp.publicKey, walletId: subwalletId });
      const stateInit = beginCell().store(storeStateInit(wallet.init)).endCell();
      addresses.push({
        key: key.name, workchain, subwalletId,
        ...addressForms(wallet.address),
        stateInitBoc: stateInit.toBoc().toString("base64"),
        stateInitHash: hex(stateInit.hash()),
      });
    }
  }
}

// The SDK's default wallet id per workchain (TON-FACTS: 698983191 + workchain).
const defaults = WORKCHAINS.map((workchain) => ({
  workchain, subwalletId: WalletContractV4.create({ workchain, publicKey: seedKeys.publicKey }).walletId,
}));

const LONG_COMMENT =
  "Withdrawal #42 for order 7f3a: thanks for trading with us! " +
  "Многобайтовый текст переходит границу ячейки — проверка snake-ячеек. " +
  "Emoji 🚀💎 and more text to pass 127 bytes twice, so the comment needs three cells in total. End.";

const transferCases = [
  { name: "deploy-seqno0-one-order", workchain: 0, subwalletId: 698983191, seqno: 0,
    orders: [{ to: "a", wc: 0, amountNano: 1_000_000_000n, comment: "payout 1", bounce: false }] },
  { name: "seqno5-two-orders", workchain: 0, subwalletId: 698983191, seqno: 5,
    orders: [
      { to: "owner", wc: 0, amountNano: 2_500_000_000n, comment: "escrow release 17", bounce: true },
      { to: "treasury", wc: 0, amountNano: 50_000_000n, comment: null, bounce: false },
    ] },
  { name: "seqno7-long-comment", workchain: 0, subwalletId: 1, seqno: 7,
    orders: [{ to: "b", wc: 0, amountNano: 123_456_789n, comment: LONG_COMMENT, bounce: true }] },
  { name: "deploy-seqno0-four-orders", workchain: 0, subwalletId: 698983192, seqno: 0,
    orders: [
      { to: "c1", wc: 0, amountNano: 1n, comment: "first", bounce: true },
      { to: "c2", wc: -1, amountNano: 1_000n, comment: null, bounce: false },
      { to: "c3", wc: 0, amountNano: 4_294_967_296n, comment: LONG_COMMENT, bounce: false },
      { to: "c4", wc: 0, amountNano: 9_223_372_036_854_775_807n, comment: "max long", bounce: true },
    ] },
  { name: "deploy-seqno0-three-orders-long-comment", workchain: 0, subwalletId: 0, seqno: 0,
    orders: [
      { to: "d1", wc: 0, amountNano: 10n, comment: LONG_COMMENT, bounce: false },
      { to: "d2", wc: 0, amountNano: 20n, comment: "", bounce: false },
      { to: "d3", wc: 0, amountNano: 30n, comment: "x", bounce: true },
    ] },
  { name: "masterchain-seqno3-max-subwallet", workchain: -1, subwalletId: 4294967295, seqno: 3,
    orders: [{ to: "e", wc: -1, amountNano: 777n, comment: "masterchain", bounce: true }] },
  { name: "seqno-max", workchain: 0, subwalletId: 698983191, seqno: 4294967295,
    orders: [{ to: "f", wc: 0, amountNano: 5n, comment: null, bounce: true }] },
];

const transfers = [];
for (const c of transferCases) {
  const key = keys[0];
  const wallet = WalletContractV4.create({ workchain: c.workchain, publicKey: key.kp.publicKey, walletId: c.subwalletId });
  const orders = c.orders.map((o) => ({
    destination: destination(o.to, o.wc), amountNano: o.amountNano, comment: o.comment, bounce: o.bounce,
  }));
  const messages = orders.map((o) => internal({
    to: o.destination, value: o.amountNano, bounce: o.bounce, ...(o.comment === null ? {} : { body: o.comment }),
  }));
  const body = wallet.createTransfer({
    seqno: c.seqno, secretKey: key.kp.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
    messages, timeout: VALID_UNTIL,
  });
  // As TonClient's provider.external() sends it: StateInit only while undeployed (seqno 0).
  const ext = external({ to: wallet.address, init: c.seqno === 0 ? wallet.init : undefined, body });
  const cell = beginCell().store(storeMessage(ext)).endCell();

  // Self-checks of the vector itself: it parses back and its signature verifies.
  const parsed = loadMessage(Cell.fromBoc(cell.toBoc())[0].beginParse());
  const bs = parsed.body.beginParse();
  const signature = bs.loadBuffer(64);
  const signedPart = bs.asCell();
  if (!signVerify(signedPart.hash(), signature, key.kp.publicKey)) throw new Error(c.name + ": bad signature");
  if ((c.seqno === 0) !== (parsed.init != null)) throw new Error(c.name + ": StateInit presence");

  transfers.push({
    name: c.name,
    key: key.name,
    workchain: c.workchain,
    subwalletId: c.subwalletId,
    wallet: wallet.address.toRawString(),
    seqno: c.seqno,
    validUntil: VALID_UNTIL,
    sendMode: 3,
    orders: orders.map((o) => ({
      destination: o.destination.toRawString(),
      amountNano: o.amountNano.toString(),
      comment: o.comment,
      bounce: o.bounce,
    })),
    boc: cell.toBoc().toString("base64"),
    messageHash: hex(cell.hash()),
    normalizedHash: hex(normalizedHash(wallet.address, body)),
    bodyHash: hex(body.hash()),
    signedPartHash: hex(signedPart.hash()),
    signature: hex(signature),
  });
}

const out = {
  generator: "tools/vectors/generate.mjs",
  sdk: {
    "@ton/core": (await import("@ton/core/package.json", { with: { type: "json" } })).default.version,
    "@ton/ton": (await import("@ton/ton/package.json", { with: { type: "json" } })).default.version,
    "@ton/crypto": (await import("@ton/crypto/package.json", { with: { type: "json" } })).default.version,
  },
  walletCodeHash: hex(WalletContractV4.create({ workchain: 0, publicKey: seedKeys.publicKey }).init.code.hash()),
  keys: keys.map(({ kp, ...k }) => k),
  defaultSubwalletIds: defaults,
  addresses,
  transfers,
};
process.stdout.write(JSON.stringify(out, null, 2) + "\n");
