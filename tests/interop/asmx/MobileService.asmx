<%@ WebService Language="C#" Class="Rmm.Mobile.MobileService" %>
