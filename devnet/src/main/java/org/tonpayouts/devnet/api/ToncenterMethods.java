package org.tonpayouts.devnet.api;

import static org.tonpayouts.devnet.api.ToncenterJson.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Faults;
import org.tonpayouts.devnet.chain.AccountState;
import org.tonpayouts.devnet.chain.AccountView;
import org.tonpayouts.devnet.chain.BlockInfo;
import org.tonpayouts.devnet.chain.Cells;
import org.tonpayouts.devnet.chain.Chain;
import org.tonpayouts.devnet.chain.CheckedMessage;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.GetMethodOutcome;
import org.tonpayouts.devnet.chain.StackValue;
import org.tonpayouts.devnet.chain.MalformedMessageException;
import org.tonpayouts.devnet.chain.MessageRejectedException;
import org.tonpayouts.devnet.chain.WalletV4R2;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.TonCell;
import org.tonpayouts.ton.network.TonNetwork;

/**
 * The toncenter API v2 methods one devnet node serves, answering from the {@link Chain} with
 * toncenter's result shapes. The node's send and read faults are decided here (latency and 429 by
 * the server): a lagging node answers every request from the block it has reached, so one answer
 * never mixes two points in time.
 */
final class ToncenterMethods {
  private static final Logger log = LoggerFactory.getLogger(ToncenterMethods.class);

  static final int MAX_TRANSACTIONS = 100;
  private static final int DEFAULT_TRANSACTIONS = 10;
  /** tonlib's exit code for a get-method on an account without code. */
  private static final int EXIT_NO_CODE = -13;
  /** TVM's exit code for an unknown get-method id. */
  private static final int EXIT_NO_METHOD = 11;
  private static final long GET_METHOD_GAS = 489;
  /** Every wallet's state carries the same code: serialized once, not on every read. */
  private static final String WALLET_CODE_BOC = WalletV4R2.CODE.toBase64();
  /** Configuration parameter 19: {@code _ global_id:int32 = ConfigParam 19;}. */
  private static final int GLOBAL_ID_PARAM = 19;
  private static final String GLOBAL_ID_CELL_BOC = TonCell.builder().storeInt(TonNetwork.DEVNET_GLOBAL_ID, 32)
      .endCell().toBase64();
  private static final Map<Integer, String> METHOD_IDS = Map.of(
      methodId("seqno"), "seqno",
      methodId("get_subwallet_id"), "get_subwallet_id",
      methodId("get_public_key"), "get_public_key",
      methodId("get_wallet_address"), "get_wallet_address",
      methodId("get_jetton_data"), "get_jetton_data",
      methodId("get_wallet_data"), "get_wallet_data",
      methodId("get_status"), "get_status",
      methodId("get_next_admin_address"), "get_next_admin_address");

  /** A method's result, and the transport fault to apply after it was processed (or {@code null}). */
  record Reply(JsonNode result, Faults.TransportError transportError) {
    static Reply of(JsonNode result) {
      return new Reply(result, null);
    }
  }

  private final Chain chain;
  private final Faults faults;
  private final BlockReads blocks;

  ToncenterMethods(Chain chain, Faults faults) {
    this.chain = Objects.requireNonNull(chain, "chain");
    this.faults = Objects.requireNonNull(faults, "faults");
    this.blocks = new BlockReads(chain);
  }

  static boolean exists(String method) {
    return switch (method) {
      case "getAddressInformation", "getWalletInformation", "getAddressBalance", "getAddressState", "runGetMethod",
          "getTransactions", "getMasterchainInfo", "sendBoc", "sendBocReturnHash",
          "shards", "getShards", "getBlockTransactions", "getBlockTransactionsExt", "getConfigParam" -> true;
      default -> false;
    };
  }

  /** sendBoc and sendBocReturnHash: the requests a send-only rate limit applies to. */
  static boolean isSend(String method) {
    return "sendBoc".equals(method) || "sendBocReturnHash".equals(method);
  }

  Reply call(String method, Params params) {
    Node node = node();
    return switch (method) {
      case "getAddressInformation" -> Reply.of(addressInformation(node, params));
      case "getWalletInformation" -> Reply.of(walletInformation(node, params));
      case "getAddressBalance" -> Reply.of(JSON.textNode(Long.toString(state(node, params).account().balance())));
      case "getAddressState" -> Reply.of(JSON.textNode(state(node, params).account().state().toncenterName()));
      case "runGetMethod" -> Reply.of(runGetMethod(node, params));
      case "getTransactions" -> Reply.of(transactions(node, params));
      case "getMasterchainInfo" -> Reply.of(masterchainInfo(node));
      case "getConfigParam" -> Reply.of(configParam(params));
      case "shards", "getShards" -> Reply.of(blocks.shards(node.block(), params));
      case "getBlockTransactionsExt" -> Reply.of(blocks.transactionsExt(node.block(), params));
      case "getBlockTransactions" -> Reply.of(blocks.transactions(node.block(), params));
      case "sendBoc" -> send(node, params, false);
      case "sendBocReturnHash" -> send(node, params, true);
      default -> throw new ApiException(404, "Not Found");
    };
  }

  /**
   * Where this node is in the chain for one request: the last block, or the block it lags behind
   * at (lag fault).
   */
  private record Node(BlockInfo block, boolean lagging) {}

  /** An account as of one block, and that block: one answer reports both, so they agree. */
  private record Snapshot(AccountView account, BlockInfo block) {}

  private Node node() {
    int lag = faults.nextLagBlocks();
    return lag == 0 ? new Node(chain.lastBlock(), false) : new Node(chain.blockBehind(lag), true);
  }

  // ---- state reads --------------------------------------------------------------------------

  /**
   * The account for a state read: pinned to {@code seqno} when given, else as of the node's block,
   * possibly some blocks before it (stale-read fault).
   */
  private Snapshot state(Node node, Params params) {
    TonAddress address = params.address("address");
    Long seqno = params.optionalLong("seqno");
    if (seqno != null) {
      if (seqno > node.block().seqno() || seqno < 0) {
        throw new ApiException(500, "LITE_SERVER_NOTREADY: block " + seqno + " is not applied yet (last is "
            + node.block().seqno() + ")");
      }
      BlockInfo pinned = chain.block(seqno);
      if (pinned == null) {
        throw new ApiException(500, "LITE_SERVER_UNKNOWN: block " + seqno + " is older than devnet keeps");
      }
      return new Snapshot(chain.accountAt(address, seqno), pinned);
    }
    int stale = faults.nextStaleBlocks();
    BlockInfo block = node.block();
    if (stale > 0) {
      block = chain.recentBlock(block.seqno() - stale);
      log.debug("stale read address={} blocksBehind={} asOf={}", address, stale, block.seqno());
    }
    return new Snapshot(chain.accountAt(address, block.seqno()), block);
  }

  private ObjectNode addressInformation(Node node, Params params) {
    Snapshot snapshot = state(node, params);
    AccountView view = snapshot.account();
    BlockInfo block = snapshot.block();
    ObjectNode n = JSON.objectNode();
    n.put("@type", "raw.fullAccountState");
    n.put("balance", Long.toString(view.balance()));
    n.putArray("extra_currencies");
    if (view.isContract()) {
      n.put("code", view.contract().code().toBase64());
      n.put("data", view.contract().data().toBase64());
    } else {
      n.put("code", view.isWallet() ? WALLET_CODE_BOC : "");
      n.put("data", view.isWallet() ? WalletV4R2.dataCell(view.wallet()).toBase64() : "");
    }
    n.set("last_transaction_id", ToncenterJson.transactionId(view.lastTxLt(), view.lastTxHash()));
    n.set("block_id", ToncenterJson.blockId(block));
    n.put("frozen_hash", "");
    n.put("sync_utime", block.utime());
    n.put("state", view.state().toncenterName());
    return n;
  }

  private ObjectNode walletInformation(Node node, Params params) {
    AccountView view = state(node, params).account();
    ObjectNode n = JSON.objectNode();
    n.put("@type", "ext.accounts.walletInformation");
    n.put("wallet", view.isWallet());
    n.put("balance", Long.toString(view.balance()));
    n.putArray("extra_currencies");
    n.put("account_state", view.state().toncenterName());
    if (view.isWallet()) {
      n.put("wallet_type", "wallet v4 r2");
      n.put("seqno", view.wallet().seqno());
      n.put("wallet_id", view.wallet().subwalletId());
    }
    n.set("last_transaction_id", ToncenterJson.transactionId(view.lastTxLt(), view.lastTxHash()));
    return n;
  }

  private ObjectNode runGetMethod(Node node, Params params) {
    JsonNode methodNode = params.raw("method");
    if (methodNode == null || methodNode.asText().isEmpty()) {
      throw ApiException.validation("field required: method");
    }
    if (params.raw("stack") != null && !params.raw("stack").isArray()) {
      throw ApiException.validation("stack must be an array");
    }
    String method = methodNode.isIntegralNumber()
        ? METHOD_IDS.getOrDefault(methodNode.asInt(), "#" + methodNode.asInt())
        : methodNode.asText();
    List<StackValue> args = GetMethodStack.arguments(params.raw("stack"));
    Snapshot snapshot = state(node, params);
    AccountView view = snapshot.account();
    ArrayNode stack = JSON.arrayNode();
    int exitCode;
    long gasUsed = GET_METHOD_GAS;
    if (view.isContract()) {
      GetMethodOutcome outcome = view.contract().runGetMethod(method, args, view.address());
      exitCode = outcome.exitCode();
      gasUsed = outcome.gasUsed();
      for (StackValue value : outcome.stack()) {
        stack.add(GetMethodStack.entry(value));
      }
    } else if (view.state() != AccountState.ACTIVE) {
      exitCode = EXIT_NO_CODE;
    } else if (!view.isWallet()) {
      exitCode = EXIT_NO_METHOD; // a plain account: devnet models no get-methods for it
    } else {
      BigInteger value = switch (method) {
        case "seqno" -> BigInteger.valueOf(view.wallet().seqno());
        case "get_subwallet_id" -> BigInteger.valueOf(view.wallet().subwalletId());
        case "get_public_key" -> new BigInteger(1, view.wallet().publicKey());
        default -> null;
      };
      if (value == null) {
        exitCode = EXIT_NO_METHOD;
      } else {
        exitCode = 0;
        stack.add(JSON.arrayNode().add("num").add("0x" + value.toString(16)));
      }
    }
    ObjectNode n = JSON.objectNode();
    n.put("@type", "smc.runResult");
    n.put("gas_used", exitCode == 0 ? gasUsed : 0);
    n.set("stack", stack);
    n.put("exit_code", exitCode);
    n.set("block_id", ToncenterJson.blockId(snapshot.block()));
    n.set("last_transaction_id", ToncenterJson.transactionId(view.lastTxLt(), view.lastTxHash()));
    return n;
  }

  // ---- transactions and blocks --------------------------------------------------------------

  private ArrayNode transactions(Node node, Params params) {
    TonAddress address = params.address("address");
    long limit = params.longOr("limit", DEFAULT_TRANSACTIONS);
    if (limit < 1 || limit > MAX_TRANSACTIONS) {
      throw ApiException.validation("limit must be within 1.." + MAX_TRANSACTIONS + ", got " + limit);
    }
    Long fromLt = params.optionalLong("lt");
    byte[] fromHash = params.optionalHash("hash");
    long toLt = params.longOr("to_lt", 0);
    List<DevnetTransaction> all = chain.transactions(address, node.block().seqno()); // oldest first
    int start = all.size() - 1;
    if (fromLt != null && fromHash != null) {
      // lt + hash name the first (newest) transaction to return; without both, start from the last one
      start = -1;
      String hashHex = Cells.hex(fromHash);
      for (int i = all.size() - 1; i >= 0; i--) {
        DevnetTransaction tx = all.get(i);
        if (tx.lt() == fromLt && tx.hash().equals(hashHex)) {
          start = i;
          break;
        }
      }
      if (start < 0) {
        throw new ApiException(500, "LITE_SERVER_UNKNOWN: cannot find transaction lt=" + fromLt + " hash="
            + ToncenterJson.b64(hashHex) + " of account " + address.toRaw());
      }
    }
    ArrayNode result = JSON.arrayNode();
    for (int i = start; i >= 0 && result.size() < limit; i--) {
      DevnetTransaction tx = all.get(i);
      if (tx.lt() <= toLt) {
        break;
      }
      result.add(ToncenterJson.transaction(tx));
    }
    return result;
  }

  private ObjectNode masterchainInfo(Node node) {
    BlockInfo last = node.block();
    ObjectNode n = JSON.objectNode();
    n.put("@type", "blocks.masterchainInfo");
    n.set("last", ToncenterJson.blockId(last));
    n.put("state_root_hash", ToncenterJson.b64(last.fileHash()));
    n.set("init", ToncenterJson.blockId(chain.genesis()));
    return n;
  }

  /**
   * {@code getConfigParam}: devnet models parameter 19 only, its global id ({@link
   * TonNetwork#DEVNET_GLOBAL_ID}, neither mainnet's nor testnet's), in tonlib's {@code configInfo}
   * shape. Any other parameter is refused as a node refuses one it cannot give.
   */
  private static ObjectNode configParam(Params params) {
    Long id = params.optionalLong("config_id");
    if (id == null) {
      throw ApiException.validation("field required: config_id");
    }
    if (id != GLOBAL_ID_PARAM) {
      throw new ApiException(500, "LITE_SERVER_UNKNOWN: devnet models configuration parameter "
          + GLOBAL_ID_PARAM + " (global_id) only, not " + id);
    }
    ObjectNode cell = JSON.objectNode();
    cell.put("@type", "tvm.cell");
    cell.put("bytes", GLOBAL_ID_CELL_BOC);
    ObjectNode n = JSON.objectNode();
    n.put("@type", "configInfo");
    n.set("config", cell);
    return n;
  }

  // ---- sending ------------------------------------------------------------------------------

  /**
   * Checks the message as this node sees the chain (a lagging node against its old block) and,
   * when it passes, queues it into the one mempool all nodes share, where the block re-checks it.
   */
  private Reply send(Node node, Params params, boolean returnHash) {
    byte[] boc = decodeBoc(params.required("boc"));
    CheckedMessage checked;
    try {
      checked = node.lagging() ? chain.checkAsOf(boc, node.block()) : chain.check(boc);
    } catch (MalformedMessageException e) {
      throw new ApiException(400, "Invalid BOC: " + e.getMessage());
    } catch (MessageRejectedException e) {
      throw new ApiException(500, e.toncenterError());
    }
    Faults.TransportError cut = null;
    if (faults.nextDropped()) {
      log.info("fault: message dropped wallet={} seqno={} hash={}", checked.message().destination(), checked.seqno(),
          checked.message().hash());
    } else {
      chain.enqueue(checked);
      cut = faults.nextTransportError();
      if (cut != null) {
        log.info("fault: transport error after queueing wallet={} seqno={} hash={} error={}",
            checked.message().destination(), checked.seqno(), checked.message().hash(), cut);
      }
    }
    ObjectNode n = JSON.objectNode();
    if (returnHash) {
      n.put("@type", "raw.extMessageInfo");
      n.put("hash", ToncenterJson.b64(checked.message().hash()));
      n.put("hash_norm", ToncenterJson.b64(checked.message().normalizedHash()));
    } else {
      n.put("@type", "ok");
    }
    return new Reply(n, cut);
  }

  private static byte[] decodeBoc(String text) {
    // a '+' in an unencoded query string arrives as a space
    String b64 = text.trim().replace(' ', '+');
    try {
      return b64.indexOf('-') >= 0 || b64.indexOf('_') >= 0
          ? Base64.getUrlDecoder().decode(b64) : Base64.getDecoder().decode(b64);
    } catch (IllegalArgumentException e) {
      throw new ApiException(400, "Invalid BOC: not base64 (" + e.getMessage() + ")");
    }
  }

  /** A get-method's id: CRC16-XMODEM of its name, with bit 16 set (FunC's method_id). */
  static int methodId(String name) {
    int crc = 0;
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      crc ^= (b & 0xff) << 8;
      for (int i = 0; i < 8; i++) {
        crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
      }
    }
    return (crc & 0xffff) | 0x10000;
  }
}
