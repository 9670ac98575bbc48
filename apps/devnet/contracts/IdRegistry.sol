// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title IdRegistry
/// @notice A stand-in for Farcaster's IdRegistry on Porthole's local devnet: each Farcaster id
///         (fid) has one custody address, which proves the fid's ownership by signing. Unlike
///         the real registry (fids handed out in order by a gateway), a custody address claims
///         the fid it asks for, if that fid is free. Not for production use.
contract IdRegistry {
    /// @notice The custody address of each fid (the zero address while unregistered).
    mapping(uint256 fid => address) public custodyOf;
    /// @notice The fid each custody address holds (0 for none).
    mapping(address owner => uint256) public idOf;

    event Register(address indexed to, uint256 indexed id);
    event Transfer(address indexed from, address indexed to, uint256 indexed id);

    error InvalidFid();
    error FidTaken(uint256 fid);
    error HasId(address owner, uint256 fid);
    error Unauthorized();

    /// @notice Registers `fid` with the caller as its custody address.
    function register(uint256 fid) external returns (uint256) {
        if (fid == 0) revert InvalidFid();
        if (custodyOf[fid] != address(0)) revert FidTaken(fid);
        if (idOf[msg.sender] != 0) revert HasId(msg.sender, idOf[msg.sender]);
        custodyOf[fid] = msg.sender;
        idOf[msg.sender] = fid;
        emit Register(msg.sender, fid);
        return fid;
    }

    /// @notice Moves the caller's fid to a new custody address (which must hold none).
    function transfer(address to) external {
        uint256 fid = idOf[msg.sender];
        if (fid == 0) revert Unauthorized();
        if (idOf[to] != 0) revert HasId(to, idOf[to]);
        idOf[msg.sender] = 0;
        idOf[to] = fid;
        custodyOf[fid] = to;
        emit Transfer(msg.sender, to, fid);
    }
}
