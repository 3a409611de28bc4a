package org.tonpayouts.devnet.chain;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tonpayouts.ton.cell.MessageCells;

/** The contract codes one chain runs, by code hash. Immutable. */
public final class ContractCodes {
  private final Map<String, ContractCode> byHash = new HashMap<>();

  private ContractCodes(List<ContractCode> codes) {
    for (ContractCode code : codes) {
      byHash.put(code.code().hashHex(), code);
    }
  }

  public static ContractCodes of(List<ContractCode> codes) {
    return new ContractCodes(codes);
  }

  public static ContractCodes none() {
    return new ContractCodes(List.of());
  }

  /**
   * The contract a StateInit deploys, or {@code null} when its code is none devnet runs or its data
   * does not load: the account then stays without code, as devnet always treated unknown code.
   */
  ContractState deploy(MessageCells.StateInit init) {
    if (init == null || init.code() == null || init.data() == null) {
      return null;
    }
    ContractCode code = byHash.get(init.code().hashHex());
    if (code == null) {
      return null;
    }
    try {
      return code.load(init.data());
    } catch (IllegalArgumentException e) { // MalformedCellException included: data the code does not store
      return null;
    }
  }

}
