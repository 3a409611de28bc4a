// Proves that the official TON JS SDK reads devnet: a WalletContractV4 transfer signed by @ton/ton,
// sent through devnet's toncenter API, then found again with TonClient.getTransactions (which
// parses every transaction's `data` BOC with @ton/core's loadTransaction), getBalance and
// runMethod('seqno'), and by following the blocks to it (shards, getBlockTransactions,
// getBlockTransactionsExt). The transfer also sends a bounceable message to an address with
// nothing there, and a second wallet sends a mode-1 transfer it cannot pay, so the SDK also parses
// a bounce, a receipt by an account without code and an aborted transaction.
//
//   java -jar devnet/target/devnet.jar --port 8081          (in another terminal: this starts nothing)
//   cd tools/sdk-check && npm install && node check.mjs http://127.0.0.1:8081 > output.txt
//
// It funds its own wallet and recipient through devnet's admin API (POST /admin/fund), so a fresh
// devnet is all it needs; each run uses new keys, so it can run against the same devnet again.
// Prints one JSON report; exits 1 on the first check that fails.
import { randomBytes } from "node:crypto";
import { Address, beginCell, Cell, Dictionary, external, internal, loadTransaction, SendMode, storeMessage } from "@ton/core";
import { keyPairFromSeed } from "@ton/crypto";
import { TonClient, WalletContractV4 } from "@ton/ton";

const devnet = (process.argv[2] ?? process.env.DEVNET_URL ?? "http://127.0.0.1:8081").replace(/\/+$/, "");
const TON = 1_000_000_000n;
const AMOUNT = TON / 4n;
const BOUNCED = TON / 10n;
const BOUNCE_FEE = 400_000n; // devnet's flat bounce fee (devnet/README.md)
const COMMENT = "sdk-check: paid by @ton/ton WalletContractV4";
const DEADLINE_MS = 30_000;

const checks = [];
const seen = {};
function check(name, actual, expected) {
  const ok = actual === expected;
  checks.push({ check: name, ok, actual: String(actual), expected: String(expected) });
  if (!ok) {
    finish(1);
  }
}

function finish(code) {
  console.log(JSON.stringify({ devnet, passed: checks.every((c) => c.ok), seen, checks }, null, 2));
  process.exit(code);
}

async function admin(path, body) {
  const res = await fetch(`${devnet}/admin/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!json.ok) {
    throw new Error(`admin ${path}: ${JSON.stringify(json)}`);
  }
  return json.result;
}

/** devnet's own JSON of an account's transactions (the same call TonClient makes), newest first. */
async function rawTransactions(address) {
  const res = await fetch(`${devnet}/api/v2/getTransactions?address=${address.toRawString()}&limit=10`);
  return (await res.json()).result;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what, probe) {
  const until = Date.now() + DEADLINE_MS;
  for (;;) {
    const found = await probe();
    if (found) {
      return found;
    }
    if (Date.now() > until) {
      throw new Error(`${what} not seen within ${DEADLINE_MS} ms`);
    }
    await sleep(200);
  }
}

/** The in message cell of a parsed transaction, exactly as stored: ^[ in_msg:(Maybe ^Message) ... ]. */
function inMessageCell(tx) {
  const io = tx.raw.refs[0].beginParse();
  return io.loadBit() ? io.loadRef() : null;
}

/** The out message cells as stored: ^[ ... out_msgs:(HashmapE 15 ^(Message Any)) ]. */
function outMessageCells(tx) {
  const io = tx.raw.refs[0].beginParse();
  if (io.loadBit()) {
    io.loadRef();
  }
  return io.loadDict(Dictionary.Keys.Uint(15), { serialize: () => { throw new Error("read only"); }, parse: (s) => s.loadRef() });
}

/**
 * A block follower's reads through the SDK, whose zod codecs validate devnet's answers:
 * getWorkchainShards (toncenter `shards`) of every masterchain block from `fromSeqno`, then
 * getShardTransactions (`getBlockTransactions`) of each shard block, until the wallet's
 * transaction shows up; then devnet's `getBlockTransactionsExt` of that block, whose `data` the
 * SDK parses to the same transaction.
 */
async function checkBlockReads(client, fromSeqno, address, tx, message) {
  let found = null;
  let oneShard = true;
  for (let mc = Math.max(1, fromSeqno); !found; mc++) {
    await waitFor(`masterchain block ${mc}`, async () => (await client.getMasterchainInfo()).latestSeqno >= mc);
    const shards = await client.getWorkchainShards(mc);
    oneShard = oneShard && shards.length === 1 && shards[0].workchain === 0;
    const shard = shards[0];
    const ids = await client.getShardTransactions(shard.workchain, shard.seqno, shard.shard);
    const id = ids.find((t) => t.account.equals(address) && t.lt === tx.lt.toString());
    if (id) {
      found = { mc, shard, id };
    }
  }
  seen.block = { masterchain_seqno: found.mc, shard: found.shard.shard, shard_seqno: found.shard.seqno };
  check("getWorkchainShards: every masterchain block lists one basechain shard", oneShard, true);
  check("shard of the whole basechain", found.shard.shard, "-9223372036854775808");
  check("a shard seqno is not its masterchain seqno", found.shard.seqno !== found.mc, true);
  check("getShardTransactions: hash of the wallet's transaction", found.id.hash, tx.hash().toString("base64"));
  const res = await fetch(`${devnet}/api/v2/getBlockTransactionsExt?workchain=0&shard=${found.shard.shard}`
    + `&seqno=${found.shard.seqno}&count=1000`);
  const page = (await res.json()).result;
  check("getBlockTransactionsExt: the block's whole list", page.incomplete, false);
  const full = page.transactions.find((t) => t.transaction_id.lt === tx.lt.toString()
    && Address.parse(t.address.account_address).equals(address));
  const parsed = loadTransaction(Cell.fromBase64(full.data).beginParse());
  check("getBlockTransactionsExt: data parses to the same transaction", parsed.hash().toString("hex"),
    tx.hash().toString("hex"));
  check("getBlockTransactionsExt: in_msg.hash = the message sent", full.in_msg.hash, message.hash().toString("base64"));
}

async function main() {
  const client = new TonClient({ endpoint: `${devnet}/api/v2/jsonRPC` });
  const keys = keyPairFromSeed(randomBytes(32)); // a fresh wallet per run
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
  const recipient = new Address(0, randomBytes(32));
  const nobody = new Address(0, randomBytes(32));
  const poorKeys = keyPairFromSeed(randomBytes(32));
  const poor = WalletContractV4.create({ workchain: 0, publicKey: poorKeys.publicKey });

  await admin("fund", { address: wallet.address.toRawString(), amount: (2n * TON).toString() });
  await admin("fund", { address: recipient.toRawString(), amount: TON.toString(), active: true });
  await admin("fund", { address: poor.address.toRawString(), amount: (TON / 100n).toString() });

  const contract = client.open(wallet);
  const before = await client.getMasterchainInfo(); // block reads below search from here
  const seqno = await contract.getSeqno();
  check("seqno of the undeployed wallet (getSeqno)", seqno, 0);

  // Signed by the SDK; sent as the first message of an undeployed wallet, so with its StateInit.
  const transfer = wallet.createTransfer({
    seqno,
    secretKey: keys.secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
    messages: [
      internal({ to: recipient, value: AMOUNT, bounce: false, body: COMMENT }),
      internal({ to: nobody, value: BOUNCED, bounce: true }),
    ],
  });
  const message = beginCell()
    .store(storeMessage(external({ to: wallet.address, init: wallet.init, body: transfer })))
    .endCell();
  await client.sendFile(message.toBoc());

  const tx = await waitFor("the wallet's transaction", async () =>
    (await client.getTransactions(wallet.address, { limit: 10 }))
      .find((t) => inMessageCell(t)?.hash().equals(message.hash())));
  const raw = (await rawTransactions(wallet.address))
    .find((t) => t.transaction_id.lt === tx.lt.toString());
  seen.wallet = wallet.address.toString();
  seen.recipient = recipient.toString();
  seen.message_hash = message.hash().toString("hex");
  seen.transaction = { lt: tx.lt.toString(), hash: tx.hash().toString("hex"), now: tx.now };

  check("transaction hash (cell hash of data) = transaction_id.hash",
    tx.hash().toString("base64"), raw?.transaction_id.hash);
  check("in message hash = the message sent", inMessageCell(tx).hash().toString("hex"),
    message.hash().toString("hex"));
  check("in message hash = in_msg.hash of the JSON", inMessageCell(tx).hash().toString("base64"), raw.in_msg.hash);
  check("in message is external-in", tx.inMessage.info.type, "external-in");
  check("lt = transaction_id.lt", tx.lt.toString(), raw.transaction_id.lt);
  check("now = utime", tx.now, raw.utime);
  check("out messages", tx.outMessagesCount, 2);
  const out = tx.outMessages.get(0);
  check("out message destination", out.info.dest.equals(recipient), true);
  check("out message value", out.info.value.coins, AMOUNT);
  check("out message created_lt = lt + 1", out.info.createdLt, tx.lt + 1n);
  check("out message comment", out.body.beginParse().skip(32).loadStringTail(), COMMENT);
  check("description type", tx.description.type, "generic");
  check("compute phase ran", tx.description.computePhase.type, "vm");
  check("compute exit code", tx.description.computePhase.exitCode, 0);
  check("aborted", tx.description.aborted, false);
  check("action phase sent both messages", tx.description.actionPhase?.messagesCreated, 2);
  check("total fees = fee", tx.totalFees.coins.toString(), raw.fee);
  check("end status", tx.endStatus, "active");

  await checkBlockReads(client, before.latestSeqno, wallet.address, tx, message);

  const received = await waitFor("the recipient's transaction", async () =>
    (await client.getTransactions(recipient, { limit: 10 }))
      .find((t) => t.inMessage?.info.type === "internal" && t.inMessage.info.src.equals(wallet.address)));
  check("the recipient's in message is the wallet's out message",
    inMessageCell(received).hash().toString("hex"), outMessageCells(tx).get(0).hash().toString("hex"));
  check("recipient got the value", received.inMessage.info.value.coins, AMOUNT);

  // the bounceable message to nobody: no code there, so it bounces back
  const bounce = await waitFor("the bounce", async () =>
    (await client.getTransactions(nobody, { limit: 10 }))[0]);
  check("no code at nobody: compute phase skipped", bounce.description.computePhase.type, "skipped");
  check("skip reason", bounce.description.computePhase.reason, "no-state");
  check("bounce phase", bounce.description.bouncePhase?.type, "ok");
  check("a transaction without a compute phase is aborted", bounce.description.aborted, true);
  const back = await waitFor("the bounced message back", async () =>
    (await client.getTransactions(wallet.address, { limit: 10 }))
      .find((t) => t.inMessage?.info.type === "internal" && t.inMessage.info.bounced));
  check("bounced back from nobody", back.inMessage.info.src.equals(nobody), true);
  check("bounced value", back.inMessage.info.value.coins, BOUNCED - BOUNCE_FEE);

  // mode 1 without +2 (ignore errors), more than the wallet has: the action phase fails
  const unaffordable = beginCell().store(storeMessage(external({
    to: poor.address,
    init: poor.init,
    body: poor.createTransfer({
      seqno: 0,
      secretKey: poorKeys.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: recipient, value: TON, bounce: false })],
    }),
  }))).endCell();
  await client.sendFile(unaffordable.toBoc());
  const aborted = await waitFor("the aborted transaction", async () =>
    (await client.getTransactions(poor.address, { limit: 10 }))
      .find((t) => inMessageCell(t)?.hash().equals(unaffordable.hash())));
  check("mode 1 unaffordable: aborted", aborted.description.aborted, true);
  check("mode 1 unaffordable: compute phase succeeded", aborted.description.computePhase.exitCode, 0);
  check("mode 1 unaffordable: action phase failed", aborted.description.actionPhase?.success, false);
  check("mode 1 unaffordable: result code 37 (not enough TON)", aborted.description.actionPhase?.resultCode, 37);
  check("mode 1 unaffordable: nothing sent", aborted.outMessagesCount, 0);
  check("mode 1 unaffordable: seqno did not move", await client.open(poor).getSeqno(), 0);

  const balance = await client.getBalance(wallet.address);
  const devnetBalance = (await (await fetch(
    `${devnet}/api/v2/getAddressBalance?address=${wallet.address.toRawString()}`)).json()).result;
  check("getBalance = getAddressBalance", balance.toString(), devnetBalance);
  check("getBalance < 2 TON - the amounts kept", balance < 2n * TON - AMOUNT - BOUNCE_FEE, true);
  const seqnoAfter = await client.runMethod(wallet.address, "seqno");
  check("runMethod('seqno') after the transfer", seqnoAfter.stack.readNumber(), 1);
  check("getSeqno after the transfer", await contract.getSeqno(), 1);

  finish(0);
}

main().catch((e) => {
  checks.push({ check: "no exception", ok: false, actual: String(e?.stack ?? e), expected: "none" });
  finish(1);
});
