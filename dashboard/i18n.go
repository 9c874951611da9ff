package dashboard

// messages holds the page texts in English and Chinese. A key missing
// from a language falls back to English, then to the key itself.
var messages = map[string]map[string]string{
	"en": {
		"app": "Cashier dashboard", "signin.title": "Sign in", "email": "Email", "password": "Password",
		"code": "Authenticator code (if enabled)", "signin": "Sign in", "signout": "Sign out",
		"signin.failed": "Email, password or code is not right.", "signin.limited": "Too many attempts. Wait a minute and try again.",
		"signin.expired": "The form expired. Please try again.", "signin.bad": "Bad request.",
		"nav.overview": "Overview", "nav.integration": "Integration", "nav.collections": "Collections", "nav.payouts": "Payouts",
		"nav.review": "Review", "nav.audit": "Audit log", "nav.account": "Account", "merchant": "Merchant", "choose": "Choose",
		"choose.merchant": "Choose a merchant to see its integration.",
		"keys":            "API keys", "keys.title": "New keys", "keys.rotate": "Rotate keys", "keys.revoke": "Revoke API key",
		"keys.once":   "Copy these now: the secret and webhook keys are shown only this once.",
		"keys.status": "API key status", "keys.back": "Back to integration",
		"cashiers": "Cashiers", "name": "Name", "webhookUrl": "Webhook URL", "status": "Status", "save": "Save",
		"open": "Open", "close": "Close", "test": "Send test event", "contracts": "Payout contracts",
		"register": "Register contract", "address": "Address", "network": "Network", "balance": "Balance",
		"approvals": "Approved wallets", "allowance": "Allowance", "not.configured": "No node configured for this network.",
		"filter": "Filter", "any": "any", "orderNo": "Order no.", "txId": "Tx id", "from": "From", "to": "To", "token": "Token",
		"amount": "Amount", "fee": "Fee", "recipient": "Recipient", "created": "Created", "updated": "Updated",
		"total": "total", "prev": "Previous", "next": "Next", "none": "Nothing here yet.",
		"payments": "On-chain payments", "webhooks": "Webhook deliveries", "resend": "Resend", "attempts": "Attempts",
		"explorer": "View in explorer", "deposit": "Deposit address", "paid": "Paid",
		"review.queue": "Payouts awaiting review", "review.unavailable": "Payout review is not available on this server.",
		"pool": "Pool (free / balance)", "approve": "Approve selected", "refuse": "Refuse selected", "reason": "Reason for refusal",
		"select.all": "Select all",
		"volume.day": "Paid volume per day (14 days)", "volume.token": "Paid volume per network and token",
		"awaiting": "Awaiting review", "failing": "Failing webhooks", "networks": "Networks", "head": "Head", "lag": "Lag (s)",
		"confirmations": "Confirmations", "health": "Health", "maintenance": "Maintenance", "active": "Active",
		"set.maintenance": "Put in maintenance", "set.active": "Make active",
		"audit.when": "When", "audit.who": "Who", "audit.what": "What", "audit.where": "From",
		"totp": "Two-factor authentication", "totp.on": "Two-factor authentication is on.",
		"totp.setup":  "Add this secret to an authenticator app, then enter the code it shows.",
		"totp.enable": "Turn on", "totp.disable": "Turn off",
		"error": "Something went wrong", "back": "Back",
		"notice.keys.revoked": "API key revoked.", "notice.cashier.saved": "Cashier saved.", "notice.test.ok": "The receiver confirmed the test event.",
		"notice.test.failed": "The receiver did not confirm the test event.", "notice.contract.saved": "Contract registered.",
		"notice.event.resent": "Event queued for delivery.", "notice.review.approve": "Payouts approved.",
		"notice.review.refuse": "Payouts refused.", "notice.network.saved": "Network status saved.", "notice.account.saved": "Account saved.",
	},
	"zh": {
		"app": "收银台管理后台", "signin.title": "登录", "email": "邮箱", "password": "密码",
		"code": "验证器代码（如已启用）", "signin": "登录", "signout": "退出登录",
		"signin.failed": "邮箱、密码或代码不正确。", "signin.limited": "尝试次数过多，请一分钟后再试。",
		"signin.expired": "表单已过期，请重试。", "signin.bad": "请求无效。",
		"nav.overview": "概览", "nav.integration": "集成", "nav.collections": "收款订单", "nav.payouts": "代付订单",
		"nav.review": "审核", "nav.audit": "审计日志", "nav.account": "账户", "merchant": "商户", "choose": "选择",
		"choose.merchant": "请选择一个商户以查看其集成设置。",
		"keys":            "API 密钥", "keys.title": "新密钥", "keys.rotate": "轮换密钥", "keys.revoke": "吊销 API 密钥",
		"keys.once":   "请立即复制：私钥和回调密钥只显示这一次。",
		"keys.status": "API 密钥状态", "keys.back": "返回集成",
		"cashiers": "收银台", "name": "名称", "webhookUrl": "回调地址", "status": "状态", "save": "保存",
		"open": "开启", "close": "关闭", "test": "发送测试事件", "contracts": "代付合约",
		"register": "登记合约", "address": "地址", "network": "网络", "balance": "余额",
		"approvals": "已授权钱包", "allowance": "授权额度", "not.configured": "此网络未配置节点。",
		"filter": "筛选", "any": "全部", "orderNo": "订单号", "txId": "交易哈希", "from": "起", "to": "止", "token": "代币",
		"amount": "金额", "fee": "手续费", "recipient": "收款地址", "created": "创建时间", "updated": "更新时间",
		"total": "共", "prev": "上一页", "next": "下一页", "none": "暂无数据。",
		"payments": "链上付款", "webhooks": "回调投递", "resend": "重新发送", "attempts": "尝试次数",
		"explorer": "在浏览器中查看", "deposit": "充值地址", "paid": "已付",
		"review.queue": "待审核代付", "review.unavailable": "此服务器未提供代付审核。",
		"pool": "资金池（可用 / 余额）", "approve": "批准所选", "refuse": "拒绝所选", "reason": "拒绝原因",
		"select.all": "全选",
		"volume.day": "每日收款量（14 天）", "volume.token": "按网络和代币的收款量",
		"awaiting": "待审核", "failing": "失败的回调", "networks": "网络", "head": "最新区块", "lag": "延迟（秒）",
		"confirmations": "确认数", "health": "健康", "maintenance": "维护中", "active": "正常",
		"set.maintenance": "设为维护", "set.active": "设为正常",
		"audit.when": "时间", "audit.who": "操作人", "audit.what": "操作", "audit.where": "来源",
		"totp": "双重验证", "totp.on": "双重验证已开启。",
		"totp.setup":  "将此密钥添加到验证器应用，然后输入它显示的代码。",
		"totp.enable": "开启", "totp.disable": "关闭",
		"error": "出错了", "back": "返回",
		"notice.keys.revoked": "API 密钥已吊销。", "notice.cashier.saved": "收银台已保存。", "notice.test.ok": "接收方已确认测试事件。",
		"notice.test.failed": "接收方未确认测试事件。", "notice.contract.saved": "合约已登记。",
		"notice.event.resent": "事件已排队重新投递。", "notice.review.approve": "代付已批准。",
		"notice.review.refuse": "代付已拒绝。", "notice.network.saved": "网络状态已保存。", "notice.account.saved": "账户已保存。",
	},
}

func translate(lang, key string) string {
	if m, ok := messages[lang][key]; ok {
		return m
	}
	if m, ok := messages["en"][key]; ok {
		return m
	}
	return key
}
