package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/stablecashier/cashier"
	"github.com/stablecashier/cashier/dashboard"
)

// stdin is where --password-stdin reads; tests replace it.
var stdin io.Reader = os.Stdin

func userCreate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var spec dashboard.UserSpec
	var fromStdin bool
	st, _, err := provisionFlags(ctx, "user create", args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&spec.Email, "email", "", "the user's email, used to sign in (required)")
		fs.StringVar(&spec.MerchantID, "merchant", "", "merchant id (required unless --operator)")
		fs.StringVar(&spec.Role, "role", "", "owner, developer, reviewer or viewer")
		fs.BoolVar(&spec.Operator, "operator", false, "an operator of the whole service instead of a merchant's user")
		fs.BoolVar(&fromStdin, "password-stdin", false, "read the password from the first line of stdin instead of generating one")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if fromStdin {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && err != io.EOF {
			return fmt.Errorf("read password: %w", err)
		}
		if spec.Password = strings.TrimRight(line, "\r\n"); spec.Password == "" {
			return fmt.Errorf("--password-stdin: no password on stdin")
		}
	}
	out, err := dashboard.CreateUser(ctx, st.(cashier.AccountStore), cashier.SystemClock{}, spec, "cli")
	if err != nil {
		return err
	}
	return printJSON(stdout, out)
}
