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
///      {Session} with {grantSession}: one target contract, a set of function selectors on it,
///      an optional only recipient, a spend limit and a validity window. The key then signs user
///      operations of its own; their `signature` is
///      `abi.encodePacked(SESSION_MAGIC, key, sig65)` (89 bytes), `sig65` being the key's ECDSA
///      signature of the EIP-191 hash of the userOpHash (the owner's scheme). A 65-byte
///      signature is the owner's, checked as before. A session operation is valid only when:
///      - the session is active (granted, not revoked);
///      - its nonce key (`nonce >> 64`) is the key's address, so each key has its own nonce lane
///        and never consumes the owner's;
///      - it has a paymaster (`paymasterAndData` of 20 bytes or more): the account's own ETH
///        never pays a session's gas (a paymaster the account has approved to take tokens for
///        gas still could: such a paymaster is the owner's choice, not the key's);
///      - its callData is `execute` or `executeBatch` (nothing else), every call going to the
///        target with no ETH and a granted selector;
///      - for `transfer`, `approve` and `transferFrom` (ERC-20) the recipient, spender or `to`
///        is the session's recipient (when that is not zero), and the amounts of all such calls
///        over the session's life stay within `spendLimit`. Other granted selectors are not
///        metered: granting one that moves tokens some other way grants it without a limit;
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

    /// @notice What a session key may do.
    struct Session {
        // The one contract the key may call.
        address target;
        // For transfer / approve / transferFrom: the only recipient or spender; zero for any.
        address recipient;
        // Most the key may move with transfer / approve / transferFrom over the session's life,
        // in the target token's base units.
        uint256 spendLimit;
        // What it has moved so far.
        uint256 spent;
        // First second the key's operations are valid.
        uint48 validAfter;
        // Last second the key's operations are valid.
        uint48 validUntil;
        bool active;
    }

    /// @dev What {_checkSessionCalls} carries from call to call.
    struct CallCheck {
        address target;
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
        bytes4[] selectors
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
    /// @param selectors The functions of `target` the key may call (at least one).
    /// @param recipient For transfer / approve / transferFrom: the only recipient or spender
    ///        (zero: any).
    /// @param spendLimit Most those calls may move in all, in the target token's base units.
    /// @param validAfter First second the key's operations are valid.
    /// @param validUntil Last second they are valid (after `validAfter`).
    function grantSession(
        address key,
        address target,
        bytes4[] calldata selectors,
        address recipient,
        uint256 spendLimit,
        uint48 validAfter,
        uint48 validUntil
    ) external onlyOwner {
        if (key == address(0) || key == owner) revert SessionKeyInvalid();
        if (target == address(0) || target == address(this) || target == address(entryPoint())) {
            revert SessionTargetInvalid();
        }
        if (selectors.length == 0) revert SessionSelectorsEmpty();
        if (validUntil <= validAfter) revert SessionWindowInvalid();
        _clearSession(key);
        sessions[key] = Session({
            target: target,
            recipient: recipient,
            spendLimit: spendLimit,
            spent: 0,
            validAfter: validAfter,
            validUntil: validUntil,
            active: true
        });
        mapping(bytes4 => bool) storage allows = _sessionAllows[key];
        bytes4[] storage granted = _sessionSelectors[key];
        for (uint256 i = 0; i < selectors.length; i++) {
            if (!allows[selectors[i]]) {
                allows[selectors[i]] = true;
                granted.push(selectors[i]);
            }
        }
        emit SessionGranted(key, target, recipient, spendLimit, validAfter, validUntil, selectors);
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
        if (userOp.paymasterAndData.length < 20) return SIG_VALIDATION_FAILED;
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
    ///      and what its transfer / approve / transferFrom calls move in all (at most `remaining`).
    ///      Reads the arguments as Solidity's calldata decoder does, refusing what it would not
    ///      decode, so what is checked here is what runs.
    function _checkSessionCalls(
        Session storage session,
        mapping(bytes4 => bool) storage allows,
        bytes calldata callData,
        uint256 remaining
    ) private view returns (bool allowed, uint256 total) {
        if (callData.length < 4) return (false, 0);
        CallCheck memory check = CallCheck(session.target, session.recipient, remaining, 0);
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
        (bool allowed, uint256 amount) = _checkSessionCall(allows, check.recipient, func);
        if (!allowed || amount > check.remaining) return false;
        check.remaining -= amount;
        check.total += amount;
        return true;
    }

    /// @dev Whether `func` (a call to the session's target) has a granted selector and, for
    ///      transfer / approve / transferFrom, goes to `recipient` (when not zero); and its amount.
    function _checkSessionCall(mapping(bytes4 => bool) storage allows, address recipient, bytes calldata func)
        private
        view
        returns (bool allowed, uint256 amount)
    {
        if (func.length < 4) return (false, 0);
        bytes4 selector = bytes4(func[:4]);
        if (!allows[selector]) return (false, 0);
        uint256 at;
        if (selector == IERC20.transfer.selector || selector == IERC20.approve.selector) {
            at = 4; // (address to | spender, uint256 amount)
        } else if (selector == IERC20.transferFrom.selector) {
            at = 36; // (address from, address to, uint256 amount)
        } else {
            return (true, 0);
        }
        (bool okTo, uint256 to) = _word(func, at);
        (bool okAmount, uint256 value) = _word(func, at + 32);
        if (!okTo || !okAmount || to >> 160 != 0) return (false, 0);
        if (recipient != address(0) && to != uint160(recipient)) return (false, 0);
        return (true, value);
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
