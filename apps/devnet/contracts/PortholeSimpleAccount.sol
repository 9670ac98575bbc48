// SPDX-License-Identifier: GPL-3.0
pragma solidity ^0.8.23;

import "@account-abstraction/contracts/samples/SimpleAccount.sol";
import "@openzeppelin/contracts/interfaces/IERC1271.sol";
import "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import "@openzeppelin/contracts/utils/Create2.sol";

/// @title PortholeSimpleAccount
/// @notice eth-infinitism's SimpleAccount v0.7 (EntryPoint v0.7, one owner, `execute` and
///         `executeBatch`, user operations signed by the owner over the EIP-191 hash of the
///         userOpHash), unchanged, plus ERC-1271: the stock SimpleAccount has no
///         `isValidSignature`, so no dapp could check its signatures.
/// @dev A signature for this account is the owner's signature of {replaySafeHash}: EIP-712 typed
///      data binding the hash to this account and chain, so a signature the owner made as a plain
///      account (or for another of its accounts) never passes as this account's.
contract PortholeSimpleAccount is SimpleAccount, IERC1271 {
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant MESSAGE_TYPEHASH = keccak256("PortholeAccountMessage(bytes32 hash)");

    constructor(IEntryPoint anEntryPoint) SimpleAccount(anEntryPoint) {}

    /// @notice The hash the owner signs for `hash`: EIP-712 `PortholeAccountMessage(bytes32 hash)`
    ///         under the domain { name: "Porthole Simple Account", version: "1", chainId, this }.
    function replaySafeHash(bytes32 hash) public view returns (bytes32) {
        bytes32 domainSeparator = keccak256(
            abi.encode(
                DOMAIN_TYPEHASH,
                keccak256("Porthole Simple Account"),
                keccak256("1"),
                block.chainid,
                address(this)
            )
        );
        return MessageHashUtils.toTypedDataHash(domainSeparator, keccak256(abi.encode(MESSAGE_TYPEHASH, hash)));
    }

    /// @inheritdoc IERC1271
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecover(replaySafeHash(hash), signature);
        if (recoverError == ECDSA.RecoverError.NoError && signer != address(0) && signer == owner) {
            return IERC1271.isValidSignature.selector;
        }
        return 0xffffffff;
    }
}

/// @title PortholeSimpleAccountFactory
/// @notice eth-infinitism's SimpleAccountFactory v0.7 for {PortholeSimpleAccount}: the same
///         `createAccount(owner, salt)` and `getAddress(owner, salt)` (CREATE2 of an ERC-1967 proxy).
contract PortholeSimpleAccountFactory {
    PortholeSimpleAccount public immutable accountImplementation;

    constructor(IEntryPoint _entryPoint) {
        accountImplementation = new PortholeSimpleAccount(_entryPoint);
    }

    /// @notice Creates the account of `owner` (or returns it when it exists already).
    function createAccount(address owner, uint256 salt) public returns (PortholeSimpleAccount ret) {
        address addr = getAddress(owner, salt);
        if (addr.code.length > 0) {
            return PortholeSimpleAccount(payable(addr));
        }
        ret = PortholeSimpleAccount(
            payable(
                new ERC1967Proxy{salt: bytes32(salt)}(
                    address(accountImplementation), abi.encodeCall(SimpleAccount.initialize, (owner))
                )
            )
        );
    }

    /// @notice The counterfactual address {createAccount} gives `owner` and `salt`.
    function getAddress(address owner, uint256 salt) public view returns (address) {
        return Create2.computeAddress(
            bytes32(salt),
            keccak256(
                abi.encodePacked(
                    type(ERC1967Proxy).creationCode,
                    abi.encode(address(accountImplementation), abi.encodeCall(SimpleAccount.initialize, (owner)))
                )
            )
        );
    }
}
