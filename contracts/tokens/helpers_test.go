package tokens_test

import (
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

func callMsg(to common.Address, selector []byte, arg common.Address) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: append(append([]byte{}, selector...), common.LeftPadBytes(arg.Bytes(), 32)...)}
}
