package org.tonpayouts.devnet.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import org.tonpayouts.devnet.chain.BlockInfo;
import org.tonpayouts.devnet.chain.Cells;
import org.tonpayouts.devnet.chain.DevnetMessage;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.ShardBlock;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.cell.CellReader;
import org.tonpayouts.ton.cell.TonCell;

/**
 * toncenter's JSON shapes (the newer C++ server's superset of the Python server's): amounts and
 * logical times as strings, hashes base64, addresses user-friendly (bounceable, mainnet flags, as
 * toncenter prints them even on testnet).
 */
final class ToncenterJson {
  static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private ToncenterJson() {}

  static String friendly(TonAddress address) {
    return address.toFriendly(true, false);
  }

  /** Lowercase hex (our APIs) to base64 (toncenter's). */
  static String b64(String hex) {
    return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex));
  }

  static ObjectNode transactionId(long lt, String hashHex) {
    ObjectNode n = JSON.objectNode();
    n.put("@type", "internal.transactionId");
    n.put("lt", Long.toString(lt));
    n.put("hash", b64(hashHex));
    return n;
  }

  static ObjectNode blockId(BlockInfo block) {
    ObjectNode n = JSON.objectNode();
    n.put("@type", "ton.blockIdExt");
    n.put("workchain", BlockInfo.WORKCHAIN);
    n.put("shard", BlockInfo.SHARD);
    n.put("seqno", block.seqno());
    n.put("root_hash", b64(block.rootHash()));
    n.put("file_hash", b64(block.fileHash()));
    return n;
  }

  /** A block of either chain as {@code ton.blockIdExt}: the shard as a signed decimal string. */
  static ObjectNode blockId(ShardBlock block) {
    ObjectNode n = JSON.objectNode();
    n.put("@type", "ton.blockIdExt");
    n.put("workchain", block.workchain());
    n.put("shard", Long.toString(block.shard()));
    n.put("seqno", block.seqno());
    n.put("root_hash", b64(block.rootHash()));
    n.put("file_hash", b64(block.fileHash()));
    return n;
  }

  static ObjectNode accountAddress(TonAddress address) {
    return accountAddress(friendly(address));
  }

  /** tonlib's {@code accountAddress}; an external message's source is one with an empty address. */
  private static ObjectNode accountAddress(String friendly) {
    ObjectNode n = JSON.objectNode();
    n.put("@type", "accountAddress");
    n.put("account_address", friendly);
    return n;
  }

  /**
   * How a transaction's messages look: {@code getTransactions} flattens a message's ends to
   * address strings and adds the decoded {@code message} (pytonlib's {@code get_transactions});
   * the block reads pass tonlib's {@code raw.message} through, ends as {@code accountAddress}
   * objects and no decoded text (toncenter's C++ server: {@code MessageStd}).
   */
  private enum Messages { FLAT, RAW }

  /** A transaction as {@code getTransactions} gives it. */
  static ObjectNode transaction(DevnetTransaction tx) {
    return transaction(tx, Messages.FLAT);
  }

  /** A transaction as {@code getBlockTransactionsExt} gives it: the same fields, tonlib's raw messages. */
  static ObjectNode blockTransaction(DevnetTransaction tx) {
    return transaction(tx, Messages.RAW);
  }

  private static ObjectNode transaction(DevnetTransaction tx, Messages shape) {
    ObjectNode n = JSON.objectNode();
    n.put("@type", "raw.transaction");
    n.set("address", accountAddress(tx.account()));
    n.put("account", tx.account().toRaw());
    n.put("utime", tx.utime());
    n.put("data", tx.data()); // the TL-B Transaction BOC: SDKs parse it, its cell hash is transaction_id.hash
    n.set("transaction_id", transactionId(tx.lt(), tx.hash()));
    n.put("fee", Long.toString(tx.totalFee()));
    n.put("storage_fee", "0");
    n.put("other_fee", Long.toString(tx.totalFee()));
    n.set("in_msg", message(tx.inMsg(), shape));
    ArrayNode outs = n.putArray("out_msgs");
    for (DevnetMessage out : tx.outMsgs()) {
      outs.add(message(out, shape));
    }
    return n;
  }

  private static ObjectNode message(DevnetMessage m, Messages shape) {
    boolean flat = shape == Messages.FLAT;
    ObjectNode n = JSON.objectNode();
    n.put("@type", "raw.message");
    n.put("hash", b64(m.hash()));
    String source = m.source() == null ? "" : friendly(m.source());
    if (flat) {
      n.put("source", source);
      n.put("destination", friendly(m.destination()));
    } else {
      n.set("source", accountAddress(source));
      n.set("destination", accountAddress(m.destination()));
    }
    n.put("value", Long.toString(m.value()));
    n.putArray("extra_currencies");
    n.put("fwd_fee", Long.toString(m.fwdFee()));
    n.put("ihr_fee", "0");
    n.put("created_lt", Long.toString(m.createdLt()));
    n.put("body_hash", b64(m.bodyHash()));
    ObjectNode data = n.putObject("msg_data");
    if (m.comment() != null) {
      data.put("@type", "msg.dataText");
      data.put("text", Base64.getEncoder().encodeToString(m.comment().getBytes(StandardCharsets.UTF_8)));
      if (flat) {
        n.put("message", m.comment());
      }
    } else {
      data.put("@type", "msg.dataRaw");
      data.put("body", m.body().toBase64());
      data.put("init_state", m.init() == null ? "" : m.init().toBase64());
      if (flat) {
        n.put("message", rawMessageText(m.body()));
      }
    }
    return n;
  }

  /** What toncenter shows as {@code message} for a raw body: base64 of its bytes after the 32-bit op. */
  private static String rawMessageText(TonCell body) {
    int bits = body.bitLength();
    if (bits <= 32) {
      return "";
    }
    CellReader slice = body.parse().skipBits(32);
    return Base64.getEncoder().encodeToString(slice.loadBytes((bits - 32) / 8));
  }
}
