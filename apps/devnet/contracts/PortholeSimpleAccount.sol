// SPDX-License-Identifier: GPL-3.0
pragma solidity ^0.8.23;

import "@account-abstraction/contracts/samples/SimpleAccount.sol";
import "@openzeppelin/contracts/interfaces/IERC1271.sol";
import "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import "@openzeppelin/contracts/utils/Create2.sol";

/// @title PortholeSimpleAccount
/// @notice eth-infinitism's SimpleAccount v0.7 (EntryPoint v0.7, one owner, `execute` and
///         `executeBatch`, user operations signed by the owner over the EIP-191 hash of the
///         userOpHash), plus ERC-1271 (the stock SimpleAccount has no `isValidSignature`, so no
///         dapp could check its signatures), plus session keys.
/// @dev ERC-1271: a signature for this account is the owner's signature of {replaySafeHash}:
///      EIP-712 typed data binding the hash to this account and chain, so a signature the owner
///      made as a plain account (or for another of its accounts) never passes as this account's.
///      Session keys never sign as the account: `isValidSignature` answers for the owner only.
///
///      Sessions: the owner (directly, or through the account's own `execute`) grants a key a
///      {Session} with {grantSession}: one target contract and what it is (its `kind`, which the
///      owner's wallet read from the chain), a set of function selectors on it, an optional only
///      recipient, a limit, a validity window and the one paymaster its operations may use. The
///      key then signs user operations of its own; their `signature` is
///      `abi.encodePacked(SESSION_MAGIC, key, sig65)` (89 bytes), `sig65` being the key's ECDSA
///      signature of the EIP-191 hash of the userOpHash (the owner's scheme). A 65-byte
///      signature is the owner's, checked as before.
///
///      What a grant may hold (else {grantSession} reverts):
///      - no selector that hands a power to someone else that outlives the session (allowances,
///        operators, permits, ownership, roles: {_outlivesSession}): such a power would survive
///        the revoke and the expiry, so a session may not create one;
///      - no selector that moves the target's assets unless the target's kind meters it
///        ({_movesAssets}, {_metered}): ERC-20 `transfer` / `transferFrom` by amount, ERC-721
///        `transferFrom` / `safeTransferFrom` by count of NFTs, ERC-1155 `safeTransferFrom` by
///        amount (all ids together). Any other selector is granted as asked: the wallet names it
///        on its card, or says plainly that it cannot tell what it does.
///
///      A session operation is valid only when:
///      - the session is active (granted, not revoked);
///      - its nonce key (`nonce >> 64`) is the key's address, so each key has its own nonce lane
///        and never consumes the owner's;
///      - its paymaster (the first 20 bytes of `paymasterAndData`) is the session's paymaster:
///        the account's own ETH never pays a session's gas, and no other paymaster carries the
///        key's operations (a paymaster the owner chose that takes tokens for gas still could:
///        that is the owner's choice, not the key's);
///      - its callData is `execute` or `executeBatch` (nothing else), every call going to the
///        target with no ETH and a granted selector;
///      - every metered call goes to the session's recipient (when that is not zero), and what
///        they move over the session's life stays within `spendLimit` (base units of an ERC-20
///        or ERC-1155, a count of ERC-721 NFTs);
///      - the key's signature recovers to the key (checked last, so a stub signature costs
///        about the same to estimate).
///      Every refusal answers SIG_VALIDATION_FAILED (the EntryPoint's "AA24 signature error");
///      none reverts. The window goes back to the EntryPoint as validAfter / validUntil
///      ("AA22 expired or not due"), so validation reads no clock. The amounts count when the
///      operation is validated, whether or not its calls then succeed. Validation reads and
///      writes only this account's storage (ERC-7562).
contract PortholeSimpleAccount is SimpleAccount, IERC1271 {
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant MESSAGE_TYPEHASH = keccak256("PortholeAccountMessage(bytes32 hash)");

    /// @notice The first 4 bytes of a session key's user operation signature.
    bytes4 public constant SESSION_MAGIC = bytes4(keccak256("PortholeSession"));
    /// @dev SESSION_MAGIC (4) + key (20) + ECDSA signature (65).
    uint256 private constant SESSION_SIGNATURE_LENGTH = 89;

    /// @notice What a session's target is: how its calls are metered.
    uint8 public constant KIND_OTHER = 0; // nothing metered; no asset-moving selector grantable
    uint8 public constant KIND_ERC20 = 1; // transfer / transferFrom by amount
    uint8 public constant KIND_ERC721 = 2; // transferFrom / safeTransferFrom by count of NFTs
    uint8 public constant KIND_ERC1155 = 3; // safeTransferFrom by amount, all ids together

    /// @notice What a session key may do.
    struct Session {
        // The one contract the key may call.
        address target;
        // For metered calls: the only recipient; zero for any.
        address recipient;
        // Most the metered calls may move over the session's life: base units of an ERC-20 or
        // ERC-1155, a count of ERC-721 NFTs.
        uint256 spendLimit;
        // What they have moved so far.
        uint256 spent;
        // First second the key's operations are valid.
        uint48 validAfter;
        // Last second the key's operations are valid.
        uint48 validUntil;
        bool active;
        // What the target is (KIND_*).
        uint8 kind;
        // The only paymaster of the key's operations.
        address paymaster;
    }

    /// @dev What {_checkSessionCalls} carries from call to call.
    struct CallCheck {
        address target;
        uint8 kind;
        address recipient;
        // What the session may still move.
        uint256 remaining;
        // What the calls checked so far move.
        uint256 total;
    }

    /// @notice The session of each key (all zero when none).
    mapping(address key => Session) public sessions;
    mapping(address key => bytes4[]) private _sessionSelectors;
    mapping(address key => mapping(bytes4 selector => bool)) private _sessionAllows;

    event SessionGranted(
        address indexed key,
        address indexed target,
        address recipient,
        uint256 spendLimit,
        uint48 validAfter,
        uint48 validUntil,
        bytes4[] selectors,
        uint8 kind,
        address paymaster
    );
    event SessionRevoked(address indexed key);

    /// @notice The key is zero or the owner.
    error SessionKeyInvalid();
    /// @notice The target is zero, this account or the EntryPoint.
    error SessionTargetInvalid();
    /// @notice No selector was granted.
    error SessionSelectorsEmpty();
    /// @notice validUntil is not after validAfter.
    error SessionWindowInvalid();
    /// @notice The kind is none of KIND_*.
    error SessionKindInvalid();
    /// @notice The paymaster is zero.
    error SessionPaymasterInvalid();
    /// @notice The selector hands a power to someone else that would outlive the session.
    error SessionSelectorForbidden(bytes4 selector);
    /// @notice The selector moves the target's assets and its kind does not meter it.
    error SessionSelectorUnmetered(bytes4 selector);

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

    /// @notice Grants `key` a session (replacing any it had: `spent` starts at zero again and only
    ///         `selectors` are granted). Only the owner, or the account itself (an owner's user
    ///         operation calling `execute(this, 0, grantSession(…))`).
    /// @param key The session key (not zero, not the owner).
    /// @param target The one contract the key may call (not zero, this account or the EntryPoint).
    /// @param selectors The functions of `target` the key may call (at least one; none that
    ///        outlives the session, none that moves assets unmetered for `kind`).
    /// @param recipient For metered calls: the only recipient (zero: any).
    /// @param spendLimit Most the metered calls may move in all (base units, or NFTs for ERC-721).
    /// @param validAfter First second the key's operations are valid.
    /// @param validUntil Last second they are valid (after `validAfter`).
    /// @param kind What `target` is (KIND_*), as the owner's wallet read it from the chain.
    /// @param paymaster The only paymaster of the key's operations (not zero).
    function grantSession(
        address key,
        address target,
        bytes4[] calldata selectors,
        address recipient,
        uint256 spendLimit,
        uint48 validAfter,
        uint48 validUntil,
        uint8 kind,
        address paymaster
    ) external onlyOwner {
        if (key == address(0) || key == owner) revert SessionKeyInvalid();
        if (target == address(0) || target == address(this) || target == address(entryPoint())) {
            revert SessionTargetInvalid();
        }
        if (selectors.length == 0) revert SessionSelectorsEmpty();
        if (validUntil <= validAfter) revert SessionWindowInvalid();
        if (kind > KIND_ERC1155) revert SessionKindInvalid();
        if (paymaster == address(0)) revert SessionPaymasterInvalid();
        _clearSession(key);
        sessions[key] = Session({
            target: target,
            recipient: recipient,
            spendLimit: spendLimit,
            spent: 0,
            validAfter: validAfter,
            validUntil: validUntil,
            active: true,
            kind: kind,
            paymaster: paymaster
        });
        _grantSelectors(key, kind, selectors);
        emit SessionGranted(
            key, target, recipient, spendLimit, validAfter, validUntil, selectors, kind, paymaster
        );
    }

    /// @dev Records `selectors` for `key`, refusing any a session may not hold.
    function _grantSelectors(address key, uint8 kind, bytes4[] calldata selectors) private {
        mapping(bytes4 => bool) storage allows = _sessionAllows[key];
        bytes4[] storage granted = _sessionSelectors[key];
        for (uint256 i = 0; i < selectors.length; i++) {
            bytes4 selector = selectors[i];
            if (_outlivesSession(selector)) revert SessionSelectorForbidden(selector);
            if (_movesAssets(selector) && !_metered(kind, selector)) {
                revert SessionSelectorUnmetered(selector);
            }
            if (!allows[selector]) {
                allows[selector] = true;
                granted.push(selector);
            }
        }
    }

    /// @notice Ends the session of `key` (its entry is cleared). Only the owner, or the account itself.
    function revokeSession(address key) external onlyOwner {
        _clearSession(key);
        emit SessionRevoked(key);
    }

    /// @notice The selectors granted to `key` (empty when it has no session).
    function sessionSelectors(address key) external view returns (bytes4[] memory) {
        return _sessionSelectors[key];
    }

    function _clearSession(address key) private {
        bytes4[] storage granted = _sessionSelectors[key];
        mapping(bytes4 => bool) storage allows = _sessionAllows[key];
        for (uint256 i = 0; i < granted.length; i++) {
            delete allows[granted[i]];
        }
        delete _sessionSelectors[key];
        delete sessions[key];
    }

    /// @dev A session signature (89 bytes starting with SESSION_MAGIC) goes to {_validateSession};
    ///      anything else is the owner's, checked exactly as SimpleAccount does.
    function _validateSignature(PackedUserOperation calldata userOp, bytes32 userOpHash)
        internal
        override
        returns (uint256 validationData)
    {
        bytes calldata signature = userOp.signature;
        if (signature.length == SESSION_SIGNATURE_LENGTH && bytes4(signature[:4]) == SESSION_MAGIC) {
            return _validateSession(userOp, userOpHash);
        }
        return super._validateSignature(userOp, userOpHash);
    }

    function _validateSession(PackedUserOperation calldata userOp, bytes32 userOpHash) private returns (uint256) {
        address key = address(bytes20(userOp.signature[4:24]));
        Session storage session = sessions[key];
        if (!session.active) return SIG_VALIDATION_FAILED;
        if (userOp.nonce >> 64 != uint256(uint160(key))) return SIG_VALIDATION_FAILED;
        if (
            userOp.paymasterAndData.length < 20
                || address(bytes20(userOp.paymasterAndData[:20])) != session.paymaster
        ) return SIG_VALIDATION_FAILED;
        uint256 spent = session.spent;
        uint256 limit = session.spendLimit;
        if (spent > limit) return SIG_VALIDATION_FAILED;
        (bool allowed, uint256 total) = _checkSessionCalls(session, _sessionAllows[key], userOp.callData, limit - spent);
        if (!allowed) return SIG_VALIDATION_FAILED;
        (address signer, ECDSA.RecoverError recoverError,) = ECDSA.tryRecoverCalldata(
            MessageHashUtils.toEthSignedMessageHash(userOpHash), userOp.signature[24:]
        );
        if (recoverError != ECDSA.RecoverError.NoError || signer != key) return SIG_VALIDATION_FAILED;
        if (total != 0) session.spent = spent + total;
        return _packValidationData(false, session.validUntil, session.validAfter);
    }

    /// @dev Whether every call of `callData` (`execute` or `executeBatch`) is within the session,
    ///      and what its metered calls move in all (at most `remaining`).
    ///      Reads the arguments as Solidity's calldata decoder does, refusing what it would not
    ///      decode, so what is checked here is what runs.
    function _checkSessionCalls(
        Session storage session,
        mapping(bytes4 => bool) storage allows,
        bytes calldata callData,
        uint256 remaining
    ) private view returns (bool allowed, uint256 total) {
        if (callData.length < 4) return (false, 0);
        CallCheck memory check = CallCheck(session.target, session.kind, session.recipient, remaining, 0);
        bytes4 selector = bytes4(callData[:4]);
        if (selector == this.execute.selector) {
            allowed = _checkExecute(allows, check, callData[4:]);
        } else if (selector == this.executeBatch.selector) {
            allowed = _checkExecuteBatch(allows, check, callData[4:]);
        }
        return allowed ? (true, check.total) : (false, 0);
    }

    /// @dev `execute(address dest, uint256 value, bytes func)`'s arguments.
    function _checkExecute(mapping(bytes4 => bool) storage allows, CallCheck memory check, bytes calldata args)
        private
        view
        returns (bool)
    {
        (bool okDest, uint256 dest) = _word(args, 0);
        (bool okValue, uint256 value) = _word(args, 32);
        return okDest && okValue && _checkCall(allows, check, args, dest, value, 0, 64);
    }

    /// @dev `executeBatch(address[] dest, uint256[] value, bytes[] func)`'s arguments (`value`
    ///      may be empty: no ETH on any call).
    function _checkExecuteBatch(mapping(bytes4 => bool) storage allows, CallCheck memory check, bytes calldata args)
        private
        view
        returns (bool)
    {
        (uint256 dests, uint256 count) = _arrayAt(args, 0);
        (uint256 values, uint256 valueCount) = _arrayAt(args, 32);
        (uint256 funcs, uint256 funcCount) = _arrayAt(args, 64);
        if (dests == 0 || values == 0 || funcs == 0) return false;
        if (funcCount != count || (valueCount != 0 && valueCount != count)) return false;
        if (valueCount == 0) values = 0;
        for (uint256 i = 0; i < count; i++) {
            if (!_checkBatchCall(allows, check, args, dests, values, funcs, 32 * i)) return false;
        }
        return true;
    }

    /// @dev The call at `at` (bytes into each array) of a batch whose `dest`, `value` (0: none)
    ///      and `func` elements start at `dests`, `values` and `funcs`.
    function _checkBatchCall(
        mapping(bytes4 => bool) storage allows,
        CallCheck memory check,
        bytes calldata args,
        uint256 dests,
        uint256 values,
        uint256 funcs,
        uint256 at
    ) private view returns (bool) {
        uint256 dest = uint256(bytes32(args[dests + at:dests + at + 32]));
        uint256 value = values == 0 ? 0 : uint256(bytes32(args[values + at:values + at + 32]));
        return _checkCall(allows, check, args, dest, value, funcs, funcs + at);
    }

    /// @dev One call: to the target, no ETH, and its data (the `bytes` at `head`, its offset
    ///      counted from `base`) within the session; adds its amount to `check`.
    function _checkCall(
        mapping(bytes4 => bool) storage allows,
        CallCheck memory check,
        bytes calldata args,
        uint256 dest,
        uint256 value,
        uint256 base,
        uint256 head
    ) private view returns (bool) {
        if (dest != uint160(check.target) || value != 0) return false;
        (bool okFunc, bytes calldata func) = _bytesAt(args, base, head);
        if (!okFunc) return false;
        (bool allowed, uint256 amount) = _checkSessionCall(allows, check.kind, check.recipient, func);
        if (!allowed || amount > check.remaining) return false;
        check.remaining -= amount;
        check.total += amount;
        return true;
    }

    /// @dev Whether `func` (a call to the session's target) has a granted selector and, when its
    ///      kind meters it, goes to `recipient` (when not zero); and what it moves.
    function _checkSessionCall(mapping(bytes4 => bool) storage allows, uint8 kind, address recipient, bytes calldata func)
        private
        view
        returns (bool allowed, uint256 amount)
    {
        if (func.length < 4) return (false, 0);
        bytes4 selector = bytes4(func[:4]);
        if (!allows[selector]) return (false, 0);
        if (!_metered(kind, selector)) return (true, 0);
        // Every metered call but ERC-20 `transfer` is (from, to, …): `to` is its second word.
        uint256 toAt = selector == TRANSFER ? 4 : 36;
        (bool okTo, uint256 to) = _word(func, toAt);
        if (!okTo || to >> 160 != 0) return (false, 0);
        if (recipient != address(0) && to != uint160(recipient)) return (false, 0);
        if (kind == KIND_ERC721) {
            // One NFT per call; the id (third word) must be there for the call to decode.
            (bool okId,) = _word(func, 68);
            return okId ? (true, 1) : (false, 0);
        }
        // ERC-20 transfer (to, amount), transferFrom (from, to, amount); ERC-1155
        // safeTransferFrom (from, to, id, amount, data).
        (bool okAmount, uint256 value) = _word(func, kind == KIND_ERC1155 ? 100 : toAt + 32);
        return okAmount ? (true, value) : (false, 0);
    }

    bytes4 private constant TRANSFER = 0xa9059cbb; // transfer(address,uint256)
    bytes4 private constant TRANSFER_FROM = 0x23b872dd; // transferFrom(address,address,uint256)
    bytes4 private constant SAFE_TRANSFER_FROM = 0x42842e0e; // safeTransferFrom(address,address,uint256)
    bytes4 private constant SAFE_TRANSFER_FROM_DATA = 0xb88d4fde; // safeTransferFrom(address,address,uint256,bytes)
    bytes4 private constant SAFE_TRANSFER_FROM_1155 = 0xf242432a; // safeTransferFrom(address,address,uint256,uint256,bytes)

    /// @dev Whether `kind` meters `selector` (what {_checkSessionCall} counts).
    function _metered(uint8 kind, bytes4 selector) private pure returns (bool) {
        if (kind == KIND_ERC20) return selector == TRANSFER || selector == TRANSFER_FROM;
        if (kind == KIND_ERC721) {
            return selector == TRANSFER_FROM || selector == SAFE_TRANSFER_FROM || selector == SAFE_TRANSFER_FROM_DATA;
        }
        if (kind == KIND_ERC1155) return selector == SAFE_TRANSFER_FROM_1155;
        return false;
    }

    /// @dev The known functions that hand someone else a power over the account's assets or the
    ///      target that stays after the session ends: allowances, operators, permits, ownership
    ///      and roles. A session may not hold them (its revoke could not take them back).
    function _outlivesSession(bytes4 s) private pure returns (bool) {
        return s == 0x095ea7b3 // approve(address,uint256): ERC-20 allowance, ERC-721 approval
            || s == 0x39509351 // increaseAllowance(address,uint256)
            || s == 0xa22cb465 // setApprovalForAll(address,bool): ERC-721, ERC-1155 operator
            || s == 0xd505accf // permit(address,address,uint256,uint256,uint8,bytes32,bytes32): ERC-2612
            || s == 0x8fcbaf0c // permit(address,address,uint256,uint256,bool,uint8,bytes32,bytes32): DAI
            || s == 0x745a41bc // permit(address,uint256,uint256,bytes): ERC-4494
            || s == 0x959b8c3f // authorizeOperator(address): ERC-777
            || s == 0x558a7297 // setOperator(address,bool): ERC-6909
            || s == 0x426a8493 // approve(address,uint256,uint256): ERC-6909
            || s == 0x3177029f // approveAndCall(address,uint256): ERC-1363
            || s == 0xcae9ca51 // approveAndCall(address,uint256,bytes): ERC-1363
            || s == 0x87517c45 // approve(address,address,uint160,uint48): Permit2
            || s == 0xf2fde38b // transferOwnership(address)
            || s == 0x2f2ff15d; // grantRole(bytes32,address)
    }

    /// @dev The known functions that move (or destroy) the target's assets of the account.
    function _movesAssets(bytes4 s) private pure returns (bool) {
        return s == TRANSFER || s == TRANSFER_FROM || s == SAFE_TRANSFER_FROM || s == SAFE_TRANSFER_FROM_DATA
            || s == SAFE_TRANSFER_FROM_1155
            || s == 0x2eb2c2d6 // safeBatchTransferFrom(address,address,uint256[],uint256[],bytes): ERC-1155
            || s == 0x9bd9bbc6 // send(address,uint256,bytes): ERC-777
            || s == 0x62ad1b83 // operatorSend(address,address,uint256,bytes,bytes): ERC-777
            || s == 0x1296ee62 // transferAndCall(address,uint256): ERC-1363
            || s == 0x4000aea0 // transferAndCall(address,uint256,bytes): ERC-1363
            || s == 0xd8fbe994 // transferFromAndCall(address,address,uint256): ERC-1363
            || s == 0xc1d34b89 // transferFromAndCall(address,address,uint256,bytes): ERC-1363
            || s == 0x095bcdb6 // transfer(address,uint256,uint256): ERC-6909
            || s == 0xfe99049a // transferFrom(address,address,uint256,uint256): ERC-6909
            || s == 0x42966c68 // burn(uint256)
            || s == 0x79cc6790 // burnFrom(address,uint256)
            || s == 0xfe9d9303 // burn(uint256,bytes): ERC-777
            || s == 0xf5298aca // burn(address,uint256,uint256): ERC-1155
            || s == 0x6b20c454; // burnBatch(address,uint256[],uint256[]): ERC-1155
    }

    /// @dev The 32-byte word at `at` in `data`; not ok when it runs past the end.
    function _word(bytes calldata data, uint256 at) private pure returns (bool ok, uint256 word) {
        if (at > data.length || data.length - at < 32) return (false, 0);
        return (true, uint256(bytes32(data[at:at + 32])));
    }

    /// @dev The `bytes` whose offset (counted from `base`) is the word at `head` in `data`.
    function _bytesAt(bytes calldata data, uint256 base, uint256 head)
        private
        pure
        returns (bool ok, bytes calldata value)
    {
        (bool okOffset, uint256 offset) = _word(data, head);
        if (!okOffset || offset > data.length - base) return (false, data[:0]);
        uint256 start = base + offset;
        (bool okLength, uint256 length) = _word(data, start);
        if (!okLength || length > data.length - start - 32) return (false, data[:0]);
        return (true, data[start + 32:start + 32 + length]);
    }

    /// @dev A top-level array of 32-byte heads whose offset is the word at `head` in `data`: where
    ///      its elements start and how many there are (all within `data`); start 0 when it does
    ///      not fit.
    function _arrayAt(bytes calldata data, uint256 head) private pure returns (uint256 start, uint256 count) {
        (bool okOffset, uint256 offset) = _word(data, head);
        if (!okOffset) return (0, 0);
        (bool okCount, uint256 length) = _word(data, offset);
        if (!okCount || length > (data.length - offset - 32) / 32) return (0, 0);
        return (offset + 32, length);
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
