package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// SettingsFile, in the data directory, holds the settings the directory
// was created or last served with. Every command reads it, so an operator
// command on a sandbox directory (mode sandbox, a brand prefix, a webhook
// signature scheme) behaves like the service that wrote it without the
// flags being repeated. A flag or environment variable still wins.
const SettingsFile = "settings.json"

// rememberedSettings are the flags a data directory keeps: the ones that
// change what the service accepts and what its webhooks look like.
var rememberedSettings = []string{
	"mode", "header-prefix", "sign-encodings", "sign-field", "unknown-fields", "error-status",
	"webhook-signature", "webhook-body", "ipv6-prefix",
	"database-url",   // the CLI on a data directory reaches the database its service uses
	"registry",       // network names in the webhooks an operator command writes
	"network-preset", // a testnet directory's commands reach the testnets, never mainnet
}

// applyRemembered fills the settings not set explicitly from the data
// directory's settings file, if there is one.
func (c *Config) applyRemembered(fields []field, explicit map[string]bool) error {
	if c.Data == "" {
		return nil
	}
	path := filepath.Join(c.Data, SettingsFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var saved map[string]string
	if err := json.Unmarshal(b, &saved); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if v, ok := saved["network-preset"]; ok && explicit["network-preset"] && v != c.NetworkPreset {
		// Its contracts and deposit addresses exist on one set of networks
		// only: on the other, payments to them would be lost.
		return fmt.Errorf("%s is a data directory of network preset %s, not %s: it keeps its networks (its contracts and deposit addresses exist only there); use another data directory (cashier init --data NEW --network-preset %s)",
			c.Data, v, c.NetworkPreset, c.NetworkPreset)
	}
	for _, f := range fields {
		v, ok := saved[f.flag]
		if !ok || explicit[f.flag] || !isRemembered(f.flag) {
			continue
		}
		if err := f.set(v); err != nil {
			return fmt.Errorf("%s: %s: %w", path, f.flag, err)
		}
	}
	return nil
}

func isRemembered(flag string) bool {
	for _, r := range rememberedSettings {
		if r == flag {
			return true
		}
	}
	return false
}

// Remember writes c's remembered settings to its data directory
// (atomically, mode 0600). onlyIfAbsent keeps an existing file: provisioning
// records the settings a directory was created with, serving the ones it
// was last served with.
func (c *Config) Remember(onlyIfAbsent bool) error {
	path := filepath.Join(c.Data, SettingsFile)
	if onlyIfAbsent {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
	}
	out := map[string]string{}
	for _, f := range c.fields() {
		if isRemembered(f.flag) {
			out[f.flag] = f.get()
		}
		if f.flag == "registry" && out[f.flag] != "" {
			// A relative path would name another file from another directory.
			abs, err := filepath.Abs(out[f.flag])
			if err != nil {
				return err
			}
			out[f.flag] = abs
		}
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.Data, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(c.Data, SettingsFile+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
