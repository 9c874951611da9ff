// Package cashier holds the domain of the stablecoin cashier and payout
// service: merchants, cashiers, payout contracts, collection and payout
// orders, their state machines, exact token amounts, the network and token
// registry, and the interfaces through which the service reaches storage and
// blockchains. It depends on nothing outside the standard library; every
// outside system lives in a package of its own (sqlite, http, evm, tron, ...).
package cashier
