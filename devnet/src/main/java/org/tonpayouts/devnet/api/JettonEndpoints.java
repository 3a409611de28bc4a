package org.tonpayouts.devnet.api;

import static org.tonpayouts.devnet.api.ToncenterJson.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.List;
import org.tonpayouts.devnet.chain.DevnetTransaction;
import org.tonpayouts.devnet.chain.jetton.JettonAdmin;
import org.tonpayouts.devnet.chain.jetton.JettonFlavor;
import org.tonpayouts.devnet.chain.jetton.JettonWalletView;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The jetton admin endpoints under {@code /admin/jetton/}: deploy a jetton, mint to an owner,
 * set a stablecoin wallet's status, read an owner's jetton wallet. Each applies at once (as
 * {@code /admin/fund} does) and answers with the wallet and the transactions' ids.
 */
final class JettonEndpoints {
  private final JettonAdmin jettons;

  JettonEndpoints(JettonAdmin jettons) {
    this.jettons = jettons;
  }

  /** {@code POST /admin/jetton/deploy {"flavor":"reference"|"stablecoin","uri"}}. */
  JsonNode deploy(Params params) {
    JettonAdmin.Deployed deployed;
    try {
      JettonFlavor flavor = JettonFlavor.of(params.required("flavor"));
      String uri = params.optional("uri");
      deployed = jettons.deploy(flavor, uri == null || uri.isEmpty() ? "devnet:jetton/" + flavor.id() : uri);
    } catch (IllegalArgumentException e) {
      throw new ApiException(400, e.getMessage());
    }
    ObjectNode n = JSON.objectNode();
    n.put("flavor", deployed.flavor().id());
    n.put("master", ToncenterJson.friendly(deployed.master()));
    n.put("master_raw", deployed.master().toRaw());
    n.put("admin", ToncenterJson.friendly(JettonAdmin.ADMIN));
    n.put("wallet_code_hash", deployed.flavor().walletCode().hashHex());
    n.set("transactions", ids(deployed.transactions()));
    return n;
  }

  /** {@code POST /admin/jetton/mint {"master","owner","amount"}} (jetton units, a string or a number). */
  JsonNode mint(Params params) {
    TonAddress master = params.address("master");
    TonAddress owner = params.address("owner");
    BigInteger amount = units(params, "amount");
    try {
      return result(jettons.mint(master, owner, amount));
    } catch (IllegalArgumentException e) {
      throw new ApiException(400, e.getMessage());
    }
  }

  /** {@code POST /admin/jetton/status {"master","owner","status"}}: 0 unlocked, 1 sending locked, 2 receiving locked, 3 both. */
  JsonNode status(Params params) {
    TonAddress master = params.address("master");
    TonAddress owner = params.address("owner");
    Long status = params.optionalLong("status");
    if (status == null) {
      throw ApiException.validation("field required: status");
    }
    try {
      return result(jettons.setStatus(master, owner, status.intValue()));
    } catch (IllegalArgumentException e) {
      throw new ApiException(400, e.getMessage());
    }
  }

  /** {@code GET /admin/jetton/wallet?master=..&owner=..}. */
  JsonNode wallet(Params params) {
    try {
      return wallet(jettons.wallet(params.address("master"), params.address("owner")));
    } catch (IllegalArgumentException e) {
      throw new ApiException(400, e.getMessage());
    }
  }

  private static ObjectNode result(JettonAdmin.Result result) {
    ObjectNode n = wallet(result.wallet());
    n.put("ok", result.ok());
    n.set("transactions", ids(result.transactions()));
    return n;
  }

  private static ObjectNode wallet(JettonWalletView wallet) {
    ObjectNode n = JSON.objectNode();
    n.put("jetton_wallet", ToncenterJson.friendly(wallet.address()));
    n.put("jetton_wallet_raw", wallet.address().toRaw());
    n.put("owner", ToncenterJson.friendly(wallet.owner()));
    n.put("master", ToncenterJson.friendly(wallet.master()));
    n.put("flavor", wallet.flavor().id());
    n.put("deployed", wallet.deployed());
    n.put("balance", wallet.balance().toString());
    n.put("status", wallet.status());
    n.put("ton_balance", Long.toString(wallet.tonBalance()));
    return n;
  }

  private static ArrayNode ids(List<DevnetTransaction> txs) {
    ArrayNode a = JSON.arrayNode();
    for (DevnetTransaction tx : txs) {
      ObjectNode id = ToncenterJson.transactionId(tx.lt(), tx.hash());
      id.put("account", ToncenterJson.friendly(tx.account()));
      id.put("aborted", tx.aborted());
      id.put("description", tx.description());
      a.add(id);
    }
    return a;
  }

  private static BigInteger units(Params params, String name) {
    JsonNode v = params.raw(name);
    if (v == null || v.asText().isEmpty()) {
      throw ApiException.validation("field required: " + name);
    }
    try {
      BigInteger amount = new BigInteger(v.asText().strip());
      if (amount.signum() <= 0 || amount.bitLength() > 120) {
        throw new ApiException(400, name + " must be 1 to 2^120-1 jetton units, got " + amount);
      }
      return amount;
    } catch (NumberFormatException e) {
      throw ApiException.validation(name + " must be an integer, got " + v.asText());
    }
  }
}
