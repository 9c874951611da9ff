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
		if spec.Password, err = readPassword(); err != nil {
			return err
		}
	}
	out, err := dashboard.CreateUser(ctx, st.(cashier.AccountStore), cashier.SystemClock{}, spec, "cli")
	if err != nil {
		return err
	}
	return printJSON(stdout, out)
}

func userList(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var merchant string
	var operators bool
	st, _, err := provisionFlags(ctx, "user list", args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&merchant, "merchant", "", "only this merchant's users")
		fs.BoolVar(&operators, "operator", false, "only the operators")
	})
	if err != nil {
		return err
	}
	defer st.Close()
	if merchant != "" && operators {
		return fmt.Errorf("user list: --merchant and --operator exclude each other")
	}
	users, err := dashboard.ListUsers(ctx, st.(cashier.AccountStore), merchant, operators)
	if err != nil {
		return err
	}
	return printJSON(stdout, map[string]any{"users": users, "total": len(users)})
}

// userChange is user disable|enable|reset-password|reset-totp|remove.
func userChange(ctx context.Context, cmd string, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	action := strings.TrimPrefix(cmd, "user ")
	var email string
	var fromStdin bool
	st, _, err := provisionFlags(ctx, cmd, args, getenv, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "the user's email (required)")
		if action == dashboard.UserResetPassword {
			fs.BoolVar(&fromStdin, "password-stdin", false, "read the new password from the first line of stdin instead of generating one")
		}
	})
	if err != nil {
		return err
	}
	defer st.Close()
	var password string
	if fromStdin {
		if password, err = readPassword(); err != nil {
			return err
		}
	}
	out, err := dashboard.ChangeUser(ctx, st.(cashier.AccountStore), cashier.SystemClock{}, email, action, password, "cli")
	if err != nil {
		return err
	}
	return printJSON(stdout, out)
}

// readPassword reads --password-stdin's first line.
func readPassword() (string, error) {
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("read password: %w", err)
	}
	pw := strings.TrimRight(line, "\r\n")
	if pw == "" {
		return "", fmt.Errorf("--password-stdin: no password on stdin")
	}
	return pw, nil
}
