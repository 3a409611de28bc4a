package org.tonpayouts.devnet.api;

import static org.tonpayouts.devnet.api.ToncenterJson.JSON;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.tonpayouts.devnet.chain.BlockContents;
import org.tonpayouts.devnet.chain.BlockInfo;
import org.tonpayouts.devnet.chain.Chain;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.ShardBlock;
import org.tonpayouts.ton.api.BlockTransactions;

/**
 * toncenter's block reads on one devnet node: {@code shards} (also {@code getShards}),
 * {@code getBlockTransactionsExt} and {@code getBlockTransactions}, answered as of the block the
 * node has reached, so a lagging node's blocks, shards and masterchain info agree with each other.
 *
 * <p>Faithful to the real servers where a client can tell: a block's transactions in the node's
 * order (account id, then lt), pages strictly after {@code (after_hash = account id, after_lt)},
 * {@code incomplete} whenever a page comes back full, the C++ server's parameter checks (422),
 * and the node's {@code LITE_SERVER_NOTREADY} texts (HTTP 500) for a block not made yet, one
 * older than devnet keeps, or one of another workchain. The shard parameter is an account prefix
 * as on the node: every value finds the workchain's single shard.
 */
final class BlockReads {
  /** toncenter's C++ server refuses a larger {@code count} (the Python server has no limit). */
  private static final int MAX_COUNT = BlockTransactions.MAX_COUNT;
  private static final int DEFAULT_COUNT = 40;
  /** The {@code mode} of a short transaction id: tonlib asks for account, lt and hash (7) after a position (128). */
  private static final int SHORT_TX_MODE = 135;

  private final Chain chain;

  BlockReads(Chain chain) {
    this.chain = Objects.requireNonNull(chain, "chain");
  }

  /** {@code shards}: the basechain block masterchain block {@code seqno} references. */
  ObjectNode shards(BlockInfo view, Params params) {
    long seqno = positiveSeqno(params);
    if (seqno > view.seqno()) {
      throw notReady(BlockInfo.WORKCHAIN, ShardBlock.WHOLE_SHARD, seqno, view);
    }
    ShardBlock top = chain.basechainBlock(seqno);
    if (top == null) {
      throw notInDb(BlockInfo.WORKCHAIN, ShardBlock.WHOLE_SHARD, seqno);
    }
    ObjectNode n = JSON.objectNode();
    n.put("@type", "blocks.shards");
    n.putArray("shards").add(ToncenterJson.blockId(top));
    return n;
  }

  /** {@code getBlockTransactionsExt}: one page of full transactions. */
  ObjectNode transactionsExt(BlockInfo view, Params params) {
    Page page = page(view, params);
    ObjectNode n = header("blocks.transactionsExt", page);
    ArrayNode txs = n.putArray("transactions");
    for (DevnetTransaction tx : page.transactions()) {
      txs.add(ToncenterJson.blockTransaction(tx));
    }
    return n;
  }

  /** {@code getBlockTransactions}: one page of short ids ({@code blocks.shortTxId}). */
  ObjectNode transactions(BlockInfo view, Params params) {
    Page page = page(view, params);
    ObjectNode n = header("blocks.transactions", page);
    ArrayNode txs = n.putArray("transactions");
    for (DevnetTransaction tx : page.transactions()) {
      ObjectNode id = txs.addObject();
      id.put("@type", "blocks.shortTxId");
      id.put("mode", SHORT_TX_MODE);
      id.put("account", tx.account().toRaw());
      id.put("lt", Long.toString(tx.lt()));
      id.put("hash", ToncenterJson.b64(tx.hash()));
    }
    return n;
  }

  private static ObjectNode header(String type, Page page) {
    ObjectNode n = JSON.objectNode();
    n.put("@type", type);
    n.set("id", ToncenterJson.blockId(page.block()));
    n.put("req_count", page.requested());
    n.put("incomplete", page.incomplete());
    return n;
  }

  /** A page of a block: its transactions after the requested position, at most {@code requested}. */
  private record Page(ShardBlock block, List<DevnetTransaction> transactions, int requested, boolean incomplete) {}

  private Page page(BlockInfo view, Params params) {
    int workchain = (int) required(params, "workchain");
    long shard = required(params, "shard");
    long seqno = positiveSeqno(params);
    long count = params.longOr("count", DEFAULT_COUNT);
    if (count <= 0) {
      throw invalid("count should be positive");
    }
    if (count > MAX_COUNT) {
      throw invalid("count should be less or equal " + MAX_COUNT);
    }
    Long afterLt = params.optionalLong("after_lt");
    byte[] afterAccount = params.optionalAccountId("after_hash");
    if (afterLt != null && afterLt < 0) {
      throw invalid("after_lt should be non-negative");
    }
    if ((afterLt == null) != (afterAccount == null)) {
      throw invalid("after_lt and after_hash should be used together");
    }
    byte[] rootHash = params.optionalHash("root_hash");
    byte[] fileHash = params.optionalHash("file_hash");
    BlockContents contents = find(view, workchain, shard, seqno, rootHash, fileHash);

    List<DevnetTransaction> all = contents.transactions();
    int from = afterLt == null ? 0 : firstAfter(all, afterAccount, afterLt);
    int to = (int) Math.min(all.size(), from + count);
    // the node cannot tell a page that ends at the block's last transaction from one that does not
    return new Page(contents.block(), all.subList(from, to), (int) count, to - from == count);
  }

  /** The block a node at {@code view} reads for these parameters, or its error. */
  private BlockContents find(BlockInfo view, int workchain, long shard, long seqno, byte[] rootHash,
                             byte[] fileHash) {
    boolean exact = rootHash != null && fileHash != null; // tonlib skips its lookup by seqno only with both
    if (workchain != BlockInfo.WORKCHAIN && workchain != Chain.BASECHAIN) {
      throw exact ? cannotLoad(workchain, shard, seqno, rootHash, fileHash, "") : notInDb(workchain, shard, seqno);
    }
    long top = workchain == BlockInfo.WORKCHAIN ? view.seqno() : view.seqno() + Chain.SHARD_SEQNO_OFFSET;
    if (seqno > top) {
      throw exact
          ? cannotLoad(workchain, shard, seqno, rootHash, fileHash, outOfViewSuffix(workchain, view))
          : notReady(workchain, shard, seqno, view);
    }
    BlockContents contents = chain.blockContents(workchain, seqno);
    if (contents == null) {
      throw exact ? cannotLoad(workchain, shard, seqno, rootHash, fileHash, "") : notInDb(workchain, shard, seqno);
    }
    ShardBlock block = contents.block();
    if (exact && (shard != block.shard() || !Arrays.equals(rootHash, hex(block.rootHash()))
        || !Arrays.equals(fileHash, hex(block.fileHash())))) {
      throw cannotLoad(workchain, shard, seqno, rootHash, fileHash, "");
    }
    return contents;
  }

  /** Index of the first transaction strictly after {@code (account, lt)} in the node's order. */
  private static int firstAfter(List<DevnetTransaction> txs, byte[] account, long lt) {
    int lo = 0;
    int hi = txs.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      DevnetTransaction tx = txs.get(mid);
      int c = Arrays.compareUnsigned(tx.account().hash(), account);
      if (c < 0 || (c == 0 && tx.lt() <= lt)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  // ---- parameters and the node's errors ---------------------------------------------------

  private static long required(Params params, String name) {
    Long v = params.optionalLong(name);
    if (v == null) {
      throw ApiException.validation("field required: " + name);
    }
    return v;
  }

  private static long positiveSeqno(Params params) {
    long seqno = required(params, "seqno");
    if (seqno <= 0) {
      throw invalid("seqno should be positive");
    }
    return seqno;
  }

  /** The C++ server's parameter check: 422 {@code failed to validate request: ...}. */
  private static ApiException invalid(String what) {
    return new ApiException(422, "failed to validate request: " + what);
  }

  /** A block beyond the node's view, looked up by seqno (the validator manager's words). */
  private static ApiException notReady(int workchain, long shard, long seqno, BlockInfo view) {
    return new ApiException(500, "LITE_SERVER_NOTREADY: cannot find block " + prefix(workchain, shard) + " seqno="
        + seqno + ": ltdb: block not found" + outOfViewSuffix(workchain, view));
  }

  /** A block the node does not have and will not get: older than it keeps, or of no workchain it knows. */
  private static ApiException notInDb(int workchain, long shard, long seqno) {
    return new ApiException(500, "LITE_SERVER_NOTREADY: cannot find block " + prefix(workchain, shard) + " seqno="
        + seqno + ": seqno not in db");
  }

  /** A block named by its hashes that the node does not have. */
  private static ApiException cannotLoad(int workchain, long shard, long seqno, byte[] rootHash, byte[] fileHash,
                                         String suffix) {
    String id = "(" + workchain + "," + shardHex(shard) + "," + seqno + ")";
    return new ApiException(500, "LITE_SERVER_NOTREADY: cannot load block " + id + ":" + upperHex(rootHash) + ":"
        + upperHex(fileHash) + " : block " + id + " is not in db" + suffix);
  }

  /** What the validator manager adds when a block is past what it has applied. */
  private static String outOfViewSuffix(int workchain, BlockInfo view) {
    return workchain == BlockInfo.WORKCHAIN
        ? " (last known masterchain block: " + view.seqno() + ")"
        : " (possibly out of sync: shard_client_seqno=" + view.seqno() + " ls_seqno=" + view.seqno() + ")";
  }

  /** An account prefix as the node prints it: {@code (0,8000000000000000)}. */
  private static String prefix(int workchain, long shard) {
    return "(" + workchain + "," + shardHex(shard) + ")";
  }

  private static String shardHex(long shard) {
    return String.format(Locale.ROOT, "%016x", shard);
  }

  private static String upperHex(byte[] hash) {
    return HexFormat.of().withUpperCase().formatHex(hash);
  }

  private static byte[] hex(String hash) {
    return HexFormat.of().parseHex(hash);
  }
}
